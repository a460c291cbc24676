from __future__ import annotations

from shared.records import ActionKind, Locator, Node, Operation
from workers.agent.scripting.parameters import camel_case, kept_operations, parameterise, said_what


def field(node_id: int, **attrs) -> Node:
    return Node(id=node_id, tag="input", operable=True, **attrs)


def op(kind: ActionKind, value: str | None = None, target: Node | None = None, **fields) -> Operation:
    locator = Locator(strategy="css", value=f"#n{target.id}") if target is not None else None
    return Operation(index=0, step_index=0, kind=kind, description="", target=target, locator=locator, value=value,
                     **fields)


def test_camel_case() -> None:
    assert camel_case("Last name") == "lastName"
    assert camel_case("E-mail address:") == "eMailAddress"
    assert camel_case("first_name") == "firstName"
    assert camel_case("petType") == "petType"
    assert camel_case("Téléphone *") == "telephone"
    assert camel_case("2nd line") == "p2ndLine"
    assert camel_case("  ") == ""


def test_names_come_from_param_then_the_step_s_words_label_aria_placeholder_name_id() -> None:
    ops = [
        op("fill", "sam", field(8, name_attr="__user_name", label="Login"), said="user name"),
        op("fill", "Davis", field(1, label="Last name"), param="surname"),
        op("fill", "a", field(2, label="Last name")),
        op("fill", "b", field(3, aria_label="Search query")),
        op("fill", "c", field(4, placeholder="Your city")),
        op("fill", "d", field(5, name_attr="zip_code")),
        op("select", "e", field(6, id_attr="pet-type")),
        op("fill", "f", field(7)),
    ]
    result = parameterise(ops)
    assert result.names == ["login", "surname", "lastName", "searchQuery", "yourCity", "zipCode", "petType",
                            "value"]


def test_a_value_with_a_placeholder_inside_is_rendered_for_each_data_row() -> None:
    rows = [{"query": "founders"}, {"query": "study"}]
    ops = [
        op("fill", "founders", field(1, label="Search"), param="query"),
        op("assert_text", "Results for founders", template="Results for <query>"),
        op("assert_text", "Results for founders"),  # the same words written out: the same in every row
        op("assert_text", "Results for founders", template="Results for <query>"),
    ]
    result = parameterise(ops, rows)
    assert result.names == ["query", "expectedText", "expectedText2"]
    assert [result.by_op[i] for i in range(4)] == ["query", "expectedText", "expectedText2", "expectedText"]
    assert result.examples == [
        {"query": "founders", "expectedText": "Results for founders", "expectedText2": "Results for founders"},
        {"query": "study", "expectedText": "Results for study", "expectedText2": "Results for founders"},
    ]


def test_duplicate_names_get_a_numeric_suffix_and_avoid_data_columns() -> None:
    ops = [
        op("fill", "x", field(1, label="Name")),
        op("fill", "y", field(2, label="Name")),
        op("fill", "z", field(3, label="Name")),
    ]
    assert parameterise(ops).names == ["name", "name2", "name3"]
    assert parameterise(ops, [{"name": "q"}]).names == ["name2", "name3", "name4"]


def test_each_typed_value_is_a_column_and_checks_reuse_the_first_of_equal_value() -> None:
    # Two fields that only happen to share a value: changing one in Examples must not change the other.
    ops = [
        op("fill", "Leo", field(1, label="Name")),
        op("fill", "Leo", field(2, label="Nickname")),
        op("assert_text", "Leo"),
        op("assert_text", "Saved"),
        op("assert_text", "Welcome"),
        op("assert_value", "Leo", field(3, label="Shown name")),
        op("assert_value", "555", Node(id=4, tag="td", context="Owner › Telephone")),
        op("assert_value", "7", Node(id=5, tag="td")),
    ]
    result = parameterise(ops)
    assert result.by_op == {0: "name", 1: "nickname", 2: "name", 3: "expectedText", 4: "expectedText2",
                            5: "name", 6: "telephoneShown", 7: "expectedValue"}
    assert result.examples == [{"name": "Leo", "nickname": "Leo", "expectedText": "Saved",
                                "expectedText2": "Welcome", "telephoneShown": "555", "expectedValue": "7"}]


def test_a_user_name_and_a_password_of_equal_value_are_two_columns() -> None:
    ops = [op("fill", "demo", field(1, label="User name")), op("fill", "demo", field(2, label="Password"))]
    result = parameterise(ops)
    assert result.names == ["userName", "password"]
    assert result.examples == [{"userName": "demo", "password": "demo"}]


def test_parameters_are_named_for_what_the_sentence_calls_them() -> None:
    sentences = ['Type "sam" as the user name', 'The message "Saved" appears and the page title reads "Home"',
                 '"Oops" is not shown', 'The "Owner" column shows "Bob"', 'The page shows "Hello"']
    ops = [
        op("fill", "sam", field(1, name_attr="__user_name"), said="user name"),
        Operation(index=1, step_index=1, kind="assert_text", description="", value="Saved"),
        Operation(index=2, step_index=1, kind="assert_text", description="", value="Home"),
        Operation(index=3, step_index=2, kind="assert_absent", description="", value="Oops"),
        Operation(index=4, step_index=3, kind="assert_text", description="", value="Bob"),
        Operation(index=5, step_index=4, kind="assert_text", description="", value="Hello"),
    ]
    result = parameterise(ops, sentences=sentences)
    assert result.names == ["userName", "expectedMessage", "expectedTitle", "absentText", "expectedOwner",
                            "expectedText"]


def test_paths_keys_and_clicks_stay_literal() -> None:
    ops = [
        op("goto", "/owners"),
        op("press", "Enter"),
        op("click", None, field(1, text="Save")),
        op("check", None, field(2, label="Agree")),
    ]
    result = parameterise(ops)
    assert result.params == [] and result.examples == [] and result.by_op == {}


def test_one_examples_row_per_data_row_and_generated_values_repeat() -> None:
    ops = [
        op("fill", "Davis", field(1, label="Last name"), param="lastName"),
        op("fill", "Madison", field(2, label="City")),
        op("assert_text", "Betty Davis", param="owner"),
    ]
    data = [
        {"lastName": "Davis", "owner": "Betty Davis"},
        {"lastName": "Franklin", "owner": "George Franklin"},
        {"lastName": "Black", "owner": "Jeff Black"},
    ]
    result = parameterise(ops, data)
    assert result.examples == [
        {"lastName": "Davis", "city": "Madison", "owner": "Betty Davis"},
        {"lastName": "Franklin", "city": "Madison", "owner": "George Franklin"},
        {"lastName": "Black", "city": "Madison", "owner": "Jeff Black"},
    ]


def test_kept_operations_drop_failed_and_redundant() -> None:
    ops = [
        op("click", None, field(1, text="A")),
        op("click", None, field(2, text="B"), ok=False, error="timeout"),
        op("click", None, field(3, text="C"), redundant=True),
    ]
    assert [o.target.text for o in kept_operations(ops)] == ["A"]


def test_a_literal_never_reuses_a_data_column() -> None:
    # "Franklin" was typed from the lastName column; the check names "Franklin" itself. Sharing <lastName> would
    # make the row with lastName Coleman assert "Coleman", which the scenario never asked for.
    ops = [
        op("fill", "Franklin", field(1, label="Last name"), param="lastName"),
        op("assert_text", "Franklin"),
        op("assert_value", "Franklin", field(2, label="Surname")),
        op("assert_text", "Franklin", param="lastName"),
    ]
    data = [{"lastName": "Franklin"}, {"lastName": "Coleman"}]
    result = parameterise(ops, data)
    # The two literals share their own parameter; only the operation naming the column uses <lastName>.
    assert result.by_op == {0: "lastName", 1: "expectedText", 2: "expectedText", 3: "lastName"}
    assert result.examples == [
        {"lastName": "Franklin", "expectedText": "Franklin"},
        {"lastName": "Coleman", "expectedText": "Franklin"},
    ]


def test_literals_still_share_a_parameter_after_a_column_of_equal_value() -> None:
    ops = [
        op("fill", "Leo", field(1, label="Name"), param="name"),
        op("fill", "Leo", field(2, label="Nickname")),
        op("assert_text", "Leo"),
    ]
    result = parameterise(ops, [{"name": "Leo"}, {"name": "Max"}])
    assert result.by_op == {0: "name", 1: "nickname", 2: "nickname"}
    assert [row["nickname"] for row in result.examples] == ["Leo", "Leo"]


def test_what_a_sentence_calls_a_value_never_reads_past_a_conjunction_nor_takes_a_record_or_a_verb():
    assert said_what("Saved", 'the message "Saved" appears') == "message"
    assert said_what("Saved", '"Saved" toast is shown') == "toast"
    assert said_what("X", 'the article title reads "X"') == "articleTitle"
    assert said_what("Bob", 'The "Owner" column shows "Bob"') == "owner"
    assert said_what("Saved", 'Click Save and "Saved" appears') == ""
    assert said_what("Done", 'Submit the form and "Done" is shown') == ""
    assert said_what("X", '"X" disappears') == ""
    assert said_what("Hi", 'Wait until "Hi" is shown') == ""
    assert said_what("Bob", 'the "Betty Davis" row shows "Bob"') == "row"  # never the row's record
    assert said_what("Bob", "Bob is listed") == ""  # unquoted: where its words begin is a guess
