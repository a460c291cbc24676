"""The sentences QA writers use, as the builtin brain reads them: (kind, target, role, value, place) per intent."""

from __future__ import annotations

import pytest

from shared.scenarios import ScenarioStep
from workers.agent.brains import BuiltinBrain


def read(action: str, expected: str | None = None) -> list[tuple]:
    decision = BuiltinBrain().decide(ScenarioStep(action=action, expected=expected), 0)
    assert decision.unsupported is None, decision.unsupported
    return [(i.kind, i.target, i.role_hint, i.value, i.anchor, i.section, i.ordinal) for i in decision.intents]


def op(kind, target=None, role=None, value=None, anchor=None, section=None, ordinal=None) -> tuple:
    return kind, target, role, value, anchor, section, ordinal


FORMS = [
    # absence
    ('Verify "Water the plants" is no longer listed', [op("assert_absent", value="Water the plants")]),
    ("Verify Water the plants is not shown", [op("assert_absent", value="Water the plants")]),
    ("'Task 3' isn't displayed on the page", [op("assert_absent", value="Task 3")]),
    ('The page does not show "Oops"', [op("assert_absent", value="Oops")]),
    ('"Draft" has disappeared', [op("assert_absent", value="Draft")]),
    ('Verify "Franklin" is removed from the list', [op("assert_absent", value="Franklin")]),
    ("Verify the Delete button is not shown", [op("assert_absent", "Delete", "button")]),
    # history
    ("Go back", [op("history", value="back")]),
    ("Return to the previous page", [op("history", value="back")]),
    ("Click the browser back button", [op("history", value="back")]),
    ("Go forward", [op("history", value="forward")]),
    ("Reload the page", [op("history", value="reload")]),
    # dialogs: the answer is set up before the action that opens the dialog
    ("Click Delete and accept the confirmation", [op("accept_dialog"), op("click", "Delete")]),
    ("Click Delete and dismiss the confirmation", [op("dismiss_dialog"), op("click", "Delete")]),
    # a dialog named by its quoted text, before or after the word
    ('Click Remove and accept the "Remove this label?" confirmation', [op("accept_dialog"), op("click", "Remove")]),
    ('Click Leave and dismiss the "Leave the page?" dialog', [op("dismiss_dialog"), op("click", "Leave")]),
    ('Click Delete and confirm the dialog "Delete label?"', [op("accept_dialog"), op("click", "Delete")]),
    ('Click Rename and answer the prompt with "New name"', [op("accept_dialog", value="New name"),
                                                            op("click", "Rename")]),
    # a "Message box" is a field of the page, never a dialog
    ('Write "Do you host school visits?" in the Message box',
     [op("fill", "Message", "field", "Do you host school visits?")]),
    # non-native lists, type-ahead
    ('Type "car" into the Assignee field and pick Carol Danvers from the suggestions',
     [op("fill", "Assignee", "field", "car"), op("pick", value="Carol Danvers")]),
    # a menu named by its button: that button opens it, then its item is chosen (kinds/choose)
    ("Choose Reports from the More menu", [op("select", "More", "dropdown", "Reports")]),
    ('Select "Rename" from the "Actions" menu', [op("select", "Actions", "dropdown", "Rename")]),
    ("From the More menu, choose Reports", [op("select", "More", "dropdown", "Reports")]),
    ("From the More menu, click Reports", [op("select", "More", "dropdown", "Reports")]),
    ("In the Actions menu, click Rename", [op("click", "Rename", section="Actions")]),  # the menu the step before opened
    ('Choose "Facet by this" in the menu that opens', [op("pick", value="Facet by this")]),
    ("Pick Import from the main menu", [op("pick", value="Import")]),
    ("Select Dog from Type", [op("select", "Type", "dropdown", "Dog")]),  # a native select stays a select
    # hover, upload, tabs, waits
    ("Hover over More", [op("hover", "More")]),
    ("Hover over More and click Open help", [op("hover", "More"), op("click", "Open help")]),
    ("Upload notes.txt as the Attachment", [op("upload", "Attachment", "field", "notes.txt")]),
    ('In the new tab, verify "Help" is shown', [op("switch_tab", value="new"), op("assert_text", value="Help")]),
    ("Switch back to the first tab", [op("switch_tab", value="first")]),
    ("Close the tab", [op("switch_tab", value="close")]),
    ('Wait until "Report ready" is shown', [op("wait_for", value="Report ready")]),
    ('Wait for "Loading" to disappear', [op("wait_gone", value="Loading")]),
    # scrolling: to a named element, to an end of the page, by a screen
    ("Scroll down to the Change History section", [op("scroll", "Change History")]),
    ('Scroll until the "Load more" button is visible', [op("scroll", "Load more", "button")]),
    ("Scroll to the bottom of the page", [op("scroll", value="bottom")]),
    ("Scroll up", [op("scroll", value="up")]),
    # absence said with appear
    ('"App crashes" should not appear in the results', [op("assert_absent", value="App crashes")]),
    ("The Delete button no longer appears", [op("assert_absent", "Delete", "button")]),
    # a text named by what it is, after a check verb; never a box to tick
    ('Verify the heading "Manage Components (4)"', [op("assert_text", value="Manage Components (4)")]),
    ('Check the "Saved" message', [op("assert_text", value="Saved")]),
    ('Check the error message "Bad password"', [op("assert_text", value="Bad password")]),
    ('Check the "Remember me" checkbox', [op("check", "Remember me", "checkbox")]),
    ('Check the description "Total votes." is shown below the heading',
     [op("assert_below", None, "heading", "Total votes.")]),
    # a field's name, then its quoted value; several pairs after one verb; replacing a named field's text
    ('Fill in Username "bob" and Password "builder42"',
     [op("fill", "Username", "field", "bob"), op("fill", "Password", "field", "builder42")]),
    ('Enter the name "Bob"', [op("fill", "name", "field", "Bob")]),
    ('Set Type to "enhancement" and Priority to "minor"',
     [op("fill", "Type", "field", "enhancement"), op("fill", "Priority", "field", "minor")]),
    ('Replace the text in the Name field with "Bob"', [op("fill", "Name", "field", "Bob")]),
    ('Replace the filter with ">=3"', [op("fill", "filter", "field", ">=3")]),
    # a row named by its quoted text, and what it says
    ('The row "warn" says "something looks wrong"', [op("assert_in_row", "warn", value="something looks wrong")]),
    # a title, then what is listed under it: quoted, or three or more short unquoted items
    ('Verify "Release Notes (3)" lists 4.1.0, 5.0.0-rc.2 and 3.9.1',
     [op("assert_in_section", "Release Notes (3)", value=v) for v in ("4.1.0", "5.0.0-rc.2", "3.9.1")]),
    ('"Current Tags (2)" lists "latest" and "next"',
     [op("assert_in_section", "Current Tags (2)", value=v) for v in ("latest", "next")]),
    # an unquoted number typed into the field just clicked
    ("Click the Amount field and type 450", [op("click", "Amount", "field"), op("fill", "Amount", "field", "450")]),
    # what the field just clicked holds, quoted
    ('Click into the "Query" editor and clear the text "select 1"',
     [op("click", "Query", "field"), op("clear", "Query", "field")]),
    # a place said first: a page by its title; without a comma before the operation
    ('On the "Are you sure?" page, click "Yes, I\'m sure"', [op("click", "Yes, I'm sure", section="Are you sure?")]),
    ('From the actions drop-down select "Delete selected"', [op("select", "actions", "dropdown", "Delete selected")]),
    ('In the search field type "shoes"', [op("fill", "search", "field", "shoes")]),
    ("In the Billing section click Save", [op("click", "Save", section="Billing")]),
    ('Next to Status, tick the "closed" checkbox', [op("check", "closed", "checkbox", anchor="Status")]),
    # a dropdown named, in an aside, by the option it shows
    ('Select "votes" in the first drop-down (the one showing "- column -")',
     [op("select", "- column -", "dropdown", "votes")]),
    # a quoted name with the kind of thing it is in two words; what it shows besides, said after "whose"
    ('Open the "Household Budget" budget file', [op("click", "Household Budget")]),
    ('Go to the "Visa Card" account, whose balance reads -562.82', [op("click", "Visa Card", "link")]),
    # a quoted item said in a part every page has is clicked there, no dropdown
    ('Select "Cash Wallet" in the sidebar', [op("click", "Cash Wallet")]),
    # a close control said with where it is in its part
    ('Dismiss the "Welcome" popup with the × in its corner', [op("click", "×", anchor="Welcome")]),
    # pictures said in words
    ("Click the three vertical dots", [op("click", "three vertical dots")]),
    ("Click the menu button with three horizontal lines at the top right corner",
     [op("click", "three horizontal lines")]),
    # how big an icon looks names nothing
    ('Click the small gear icon in the "votes" column header', [op("click", "gear", anchor="votes")]),
    # where on the screen the part to close is, said after it
    ("Close the welcome notification in the bottom right corner", [op("click", "close", "button", anchor="welcome")]),
    # where the section or row is, said after it, narrows nothing more
    ('Click "Settings" in the Site section of the left menu',
     [op("click", "Settings", anchor="left menu", section="Site")]),
    ('Click "Add" on the "Blog posts" row of the dashboard', [op("click", "Add", anchor="Blog posts")]),
    # every row's column said with "as", or the column before its text
    ('Ensure every row has "Julia Moreau" as assignee and "Onboarding" as project',
     [op("assert_column_each", "assignee", value="Julia Moreau"), op("assert_column_each", "project", value="Onboarding")]),
    ("Every row has status closed", [op("assert_column_each", "status", value="closed")]),
    ('Every row has status "closed"', [op("assert_column_each", "status", value="closed")]),
    # a text that changes to another
    ('The heading changes to "Version History (3)"', [op("assert_text", value="Version History (3)")]),
    # a verb after "and" is a new clause, but for a field named Type with its value
    ('Click "Next" and go to "Settings"', [op("click", "Next"), op("click", "Settings", "link")]),
    # alternatives listed with commas, in one column
    ('Verify every row has "Open", "Closed" or "Pending" in the status column',
     [op("assert_column_each", "status", value="Open|Closed|Pending")]),
    # a row said after its texts, or with a modal verb
    ('Verify "Fix login" is the first row', [op("assert_row_at", value="Fix login", ordinal=0)]),
    ('The last row should be "Archive"', [op("assert_row_at", value="Archive", ordinal=-1)]),
    ('Verify "Rent" is listed first', [op("assert_row_at", value="Rent", ordinal=0)]),
    ('"Rent" is now at the top of the table', [op("assert_row_at", value="Rent", ordinal=0)]),
    ('"Archive" should appear at the bottom of the list', [op("assert_row_at", value="Archive", ordinal=-1)]),
    # a control left as it is: nothing to do but see that it is so
    ('Leave "Everything" selected in the search dropdown', [op("assert_value", "search", "dropdown", "Everything")]),
    ('Keep "Blog posts" selected', [op("assert_state", "Blog posts", value="selected")]),
    ('Keep the "Notify me" box ticked', [op("assert_state", "Notify me", "checkbox", "checked")]),
    # the only one of a list, said with its kind; who did it, a name the page shows
    ('Only the post "Hello" should be listed, posted by Ada Admin',
     [op("assert_count", "Hello", value="one"), op("assert_text", value="Hello"), op("assert_text", value="Ada Admin")]),
    ('"Fix it" was reported by bob', [op("assert_text", value="Fix it"), op("assert_text", value="bob")]),
    ("The ticket is reported by alice", [op("assert_text", value="alice")]),
    # a column said with every cell, or only one text; a row said after its text, with appears / listed / a page
    ('Make sure every row in the priority column reads "Critical"', [op("assert_column_each", "priority", value="Critical")]),
    ('The assignee column should contain only "Dana Okafor"', [op("assert_column_each", "assignee", value="Dana Okafor")]),
    ('All values of the status column are "Open" or "Closed"', [op("assert_column_each", "status", value="Open|Closed")]),
    ('Verify "Timeout error" appears in the last row', [op("assert_row_at", value="Timeout error", ordinal=-1)]),
    ('Make sure "Timeout error" is the first row listed', [op("assert_row_at", value="Timeout error", ordinal=0)]),
    ('The first row on the second page is issue 95, "Missing validation"',
     [op("assert_row_at", value="Missing validation", ordinal=0), op("assert_row_at", value="95", ordinal=0)]),
    # a list showing only one text; a part of the page going back to a text; what the page reports; a count's text
    ('Verify the facet now shows only "Open · 47"', [op("assert_count", "Open · 47", value="one"),
                                                      op("assert_text", value="Open · 47")]),
    ('The table goes back to "120 rows"', [op("assert_text", value="120 rows")]),
    ('The page reports "8 rows where search matches"', [op("assert_text", value="8 rows where search matches")]),
    ('The count "10 rows" is shown', [op("assert_text", value="10 rows")]),
    ('A "Show all columns" entry is now offered in the menu', [op("assert_text", value="Show all columns")]),
    # an unquoted list of names with counts, one of them a verb's word
    ("It shows Platform 3, Mobile 2, Search 2 and Growth 1",
     [op("assert_text", value=v) for v in ("Platform 3", "Mobile 2", "Search 2", "Growth 1")]),
    # a text found; the element of what was said before ('its'); once more, said many ways
    ('Find the row for the "Billing" project (code BIL)', [op("assert_text", value="Billing")]),
    ('Locate "Rent" in the list and click its Edit button',
     [op("assert_text", value="Rent"), op("click", "Edit", "button", anchor="Rent")]),
    ('Click the "votes" header one more time', [op("click", "votes")]),
    ('Click "Next page" a final time', [op("click", "Next page")]),
    # a number with its sign is a text as if quoted; a row said by it; what is left; a comment added
    ('Only one ticket remains, #2 "Add dark mode"',
     [op("assert_count", "#2", value="one ticket"), op("assert_text", value="#2"), op("assert_text", value="Add dark mode")]),
    ('The row for #3 shows "Documentation" in the Component column', [op("assert_in_row", "#3", value="Documentation")]),
    ("Click ticket #3", [op("click", "#3")]),
    ('Add the comment "Carol speaks French."', [op("fill", "comment", "field", "Carol speaks French.")]),
    # a name said unquoted as a part's subject is the text it is about, never read past
    ("Cash Wallet is gone from the On budget list", [op("assert_absent", value="Cash Wallet")]),
    ('Verify that no "Comcast" row is displayed any more', [op("assert_absent", value="Comcast")]),
    # a switch set on or off; a radio selected in a row; an item highlighted in a list; a dropdown switched
    ('Set the "Dark mode" switch to off', [op("uncheck", "Dark mode", "checkbox")]),
    ('Switch the "Dark mode" toggle to on', [op("check", "Dark mode", "checkbox")]),
    ('Select the "Published" radio button in the row for "Draft: Autumn Sale"',
     [op("check", "Published", "radio", anchor="Draft: Autumn Sale")]),
    ('Highlight "Tips" under "Available Categories"', [op("click", "Tips", section="Available Categories")]),
    ('Switch the Type dropdown to "Pages"', [op("select", "Type", "dropdown", "Pages")]),
    # values put 'as' fields said in words; a look at a count or a group; a cell of a row said before
    ('In the "Add Component:" box, enter Payments as Name and carol as Owner',
     [op("fill", "Name", "field", "Payments", section="Add Component:"),
      op("fill", "Owner", "field", "carol", section="Add Component:")]),
    ('Click "Gustav Berg" in the lead column of the "Billing" row', [op("click", "Gustav Berg", anchor="Billing")]),
    # a tab selected; a menu named by its glyph; a text gone from a named part of the page
    ('Select the "Keyboard" tab on the left', [op("click", "Keyboard", "tab")]),
    ('From the ☰ main menu pick "Settings"', [op("select", "☰ main", "dropdown", "Settings")]),
    ('Verify that the "inject" node is no longer shown in the palette', [op("assert_absent", value="inject")]),
    ('Fill "Your name" with Tessa Tester and "Email" with tessa@example.com',
     [op("fill", "Your name", "field", "Tessa Tester"), op("fill", "Email", "field", "tessa@example.com")]),
    ('Expand the "Columns" section by clicking its title', [op("expand", "Columns")]),
    # a value beside its quoted label said of the thing; a name after a quoted label is a text too, never dropped
    ('Make sure the ticket is "Owned by" Bob Tanaka and the Priority is major',
     [op("assert_beside", "Owned by", value="Bob Tanaka"), op("assert_value", "Priority", value="major")]),
    ('Verify "Owned by:" Bob Tanaka is shown', [op("assert_text", value="Owned by:"), op("assert_text", value="Bob Tanaka")]),
    # a review's cases: a text looked for, then 'it'; a capitalised verb after 'and'; values with 'and' and commas
    ('Find "Rent" and open it', [op("assert_text", value="Rent"), op("click", "Rent")]),
    ('Fill the Name field with Bob and Select 2 from the Qty dropdown',
     [op("fill", "Name", "field", "Bob"), op("select", "Qty", "dropdown", "2")]),
    ('Set "Title" to Lunch and Learn with Sales', [op("fill", "Title", "field", "Lunch and Learn with Sales")]),
    ('Fill "Message" with Hello, World to test', [op("fill", "Message", "field", "Hello, World to test")]),
    ('Check the first two items', [op("check", "first two items", "checkbox")]),
    ('Keep "Remember me" checked', [op("assert_state", "Remember me", value="checked")]),  # checked, never ticked
    ('Verify "Pages" is selected in the Type dropdown', [op("assert_value", "Type", "dropdown", "Pages")]),
    # targets named by their place, icon or order
    ("Tick the checkbox of Water the plants", [op("check", "", "checkbox", anchor="Water the plants")]),
    ('Type "Alice L." into the first field under Profile',
     [op("fill", "", "field", "Alice L.", section="Profile", ordinal=0)]),
    ('Type "x" into the second field under Sign up', [op("fill", "", "field", "x", section="Sign up", ordinal=1)]),
    ("Click Remove next to Savings account", [op("click", "Remove", anchor="Savings account")]),
    # a column header is named by its text; a place's one quoted text is what the page shows
    ("Click the votes column header", [op("click", "votes")]),
    ('Click the gear icon in the "priority" column header', [op("click", "gear", anchor="priority")]),
    ('Click the cog next to the "status" column heading', [op("click", "cog", anchor="status")]),
    # one verb for two objects, each with its own place; a clause with no verb goes on with the last one
    ('Select "Documentation" from the Component dropdown and "2.0 Release" from the Milestone dropdown',
     [op("select", "Component", "dropdown", "Documentation"), op("select", "Milestone", "dropdown", "2.0 Release")]),
    ('Type "Billing" into the Name field and "alice" in the Owner field',
     [op("fill", "Name", "field", "Billing"), op("fill", "Owner", "field", "alice")]),
    ('Click "Blog posts" in the sidebar, then the "Add Blog post" button',
     [op("click", "Blog posts", anchor="sidebar"), op("click", "Add Blog post", "button")]),
    ('Click Save, then "Saved" is shown', [op("click", "Save"), op("assert_text", value="Saved")]),
    # what stays as it is; why the tester clicks; an element by its place in a menu every page has
    ('Leave "Off budget" unticked', [op("uncheck", "Off budget", "checkbox")]),
    ('Click the "Modify Ticket" heading to unfold it', [op("click", "Modify Ticket")]),
    ('Click "Users" under "Users" in the left-hand menu',
     [op("click", "Users", anchor="left-hand menu", section="Users")]),
    ('Select the "reassign to" option and type "carol" in the text box next to it',
     [op("click", "reassign to", "option"), op("fill", "", "field", "carol", anchor="reassign to")]),
    # a parenthesis: the element's name, the glyph it shows, or a hint where to look
    ("Click the ... button at the right end of the toolbar (its label is Account menu)", [op("click", "Account menu")]),
    ("Click the main menu (the ☰ icon)", [op("click", "☰")]),
    ("Click the gear icon in the header (left of the info icon)", [op("click", "gear", anchor="header")]),
    # a statement checked, not a box ticked
    ('Check the history says the owner changed from "Bob" to "Carol"',
     [op("assert_text", value="Carol"), op("assert_text", value="Bob")]),
    # a tab of the page by its name; a browser's tab by its order
    ('Switch to the "Install" tab', [op("click", "Install", "tab")]),
    ("Go to the Palette tab", [op("click", "Palette", "tab")]),
    # a text placed by a part of the page
    ('Verify the text "2 of 6 selected" is shown above the table', [op("assert_above", role="table",
                                                                     value="2 of 6 selected")]),
    ('Check that "(8 matches)" is shown next to the "Custom Query" heading',
     [op("assert_beside", "Custom Query", "heading", "(8 matches)")]),
    ('Verify "Saved" and "Draft" are shown below "Status"',
     [op("assert_below", "Status", value="Saved"), op("assert_below", "Status", value="Draft")]),
    ('Expand the "npm" section', [op("expand", "npm")]),
    ("Collapse the Validation entry", [op("expand", "Validation")]),
    ('Expand "Validation" the same way', [op("expand", "Validation")]),
    # a quoted name and the kind of thing it is; a table or list named only by what it holds
    ('Hover the "Savings Goals" group row in the budget table', [op("hover", "Savings Goals", anchor="budget table")]),
    # closing a part of the page: its close control, in the part that holds its title
    ('Close the "Welcome" notification with its × button', [op("click", "×", "button", anchor="Welcome")]),
    ("Close the welcome notification", [op("click", "close", "button", anchor="welcome")]),
    ('Dismiss the "Saved" message', [op("click", "close", "button", anchor="Saved")]),
    ("Close the notification", [op("click", "close", "button")]),
    ("Close the dialog", [op("dismiss_dialog")]),  # a browser's own dialog: nothing on the page names it
    # a double click; a name and the part of the page it is in, both quoted
    ('Double-click the "Wake up" node on the "Home Automation" flow',
     [op("double_click", "Wake up", section="Home Automation")]),
    ('Click the "Edit" button in the "Profile" panel', [op("click", "Edit", "button", section="Profile")]),
    # where on the screen an element is names nothing
    ('Click the "Search Packages" field at the top of the page', [op("click", "Search Packages", "field")]),
    ("Click the hamburger icon in the top right corner of the editor", [op("click", "hamburger")]),
    # an element said with the picture it shows: the picture
    ("Open the main menu with the three-line icon at the far top right", [op("click", "three-line")]),
    ("Click the button with the ☰ icon", [op("click", "☰")]),
    ('Click the "Order Processing" tab above the canvas', [op("click", "Order Processing", "tab", anchor="canvas")]),
    ('Click "Contact Us" in the top navigation bar', [op("click", "Contact Us", anchor="top navigation bar")]),
    # a part every page has, named by what it is, names nothing
    ('Click "Blog posts" in the sidebar', [op("click", "Blog posts", anchor="sidebar")]),
    ('Click "Pages" in the left-hand menu under "Content"',
     [op("click", "Pages", anchor="left-hand menu", section="Content")]),
    ('Click the "Search Packages" box in the header', [op("click", "Search Packages", "field", anchor="header")]),
    ('Click the "Opening Hours" page in the tree', [op("click", "Opening Hours", anchor="tree")]),
    # a place said before its clause
    ('Under "Queries", click "Open issues for a person"',
     [op("click", "Open issues for a person", section="Queries")]),
    ('In the "Suggested facets" line, click "project_id"', [op("click", "project_id", section="Suggested facets")]),
    ('In the row of issue 119 "Fix login", click Edit', [op("click", "Edit", anchor="Fix login")]),
    ("In the Billing section, click Save", [op("click", "Save", section="Billing")]),
    ("Click the trash icon in the row of Water the plants", [op("click", "trash", anchor="Water the plants")]),
    ("Click the star icon of Water the plants", [op("click", "star", anchor="Water the plants")]),
    ("Click python under Trending topics", [op("click", "python", section="Trending topics")]),
    ("Click Save in the Billing panel", [op("click", "Save", section="Billing")]),
    ("Click the second Delete button", [op("click", "Delete", "button", ordinal=1)]),
    ("Click the last Edit link", [op("click", "Edit", "link", ordinal=-1)]),
    ("Click the Water the plants row", [op("click", "Water the plants")]),
    # names that only look like places or orders
    ("Click the Terms of Service link", [op("click", "Terms of Service", "link")]),
    ("Type Franklin into the last name field", [op("fill", "last name", "field", "Franklin")]),
    # a check announced in the action cell, the check itself in the expected cell
    ("Check the result", [op("assert_text", value="Saved")]),
    ("Check the issues list", [op("assert_text", value="Saved")]),  # a part of the page is looked at, not ticked
    ("Verify the page shows the heading Renew the TLS certificate", [op("assert_text", value="Renew the TLS certificate")]),
    # the state of a named control
    ("Verify the Import button is disabled", [op("assert_state", "Import", "button", "disabled")]),
    ('Verify the "Remember me" checkbox is ticked', [op("assert_state", "Remember me", "checkbox", "checked")]),
    ('Check the "Terms" box is unticked', [op("assert_state", "Terms", "checkbox", "unchecked")]),
    ("Check that the Notes field is empty", [op("assert_state", "Notes", "field", "empty")]),
    ("Verify the Save button is no longer greyed out", [op("assert_state", "Save", "button", "enabled")]),
    ('The "Save" button is not disabled', [op("assert_state", "Save", "button", "enabled")]),
    ('Verify the "Advanced" section is collapsed', [op("assert_state", "Advanced", None, "collapsed")]),
    # a field's value, quoted: that field's value, never the text anywhere on the page
    ('Verify the Status field shows "new"', [op("assert_value", "Status", "field", "new")]),
    # a tooltip said aside names the control; "of this package" places nothing
    ('Click the "+" icon next to the group name (tooltip "Add category")', [op("click", "Add category")]),
    ('Click the arrow whose tooltip is "Choose"', [op("click", "Choose")]),
    ('Click the little green arrow whose tooltip is "Choose"', [op("click", "Choose")]),
    ('Click the small calendar icon "Choose a Date"', [op("click", "Choose a Date")]),
    ('Click the edit link of the alice row', [op("click", "edit", "link", anchor="alice")]),
    # a place said first, for the rest of the step: next to a text, in a row
    ('Next to "Published from", click the calendar icon "Choose a Date"',
     [op("click", "Choose a Date", anchor="Published from")]),
    ('Beside "Ann", click Edit and then Delete', [op("click", "Edit", anchor="Ann"), op("click", "Delete", anchor="Ann")]),
    # a record named by its title is a place, not the tooltip of what is clicked
    ('Click the Edit button of the issue with the title "Fix login"', [op("click", "Edit", "button", anchor="Fix login")]),
    ('In the row of "Ann", click Edit and then Delete', [op("click", "Edit", anchor="Ann"),
                                                        op("click", "Delete", anchor="Ann")]),
    ('Click the icon with the title "Copy" next to "npm i"', [op("click", "Copy", anchor="npm i")]),
    ("Open the DEPENDENCIES tab of this package", [op("click", "DEPENDENCIES", "tab")]),
    ("Click the Delete button of this row", [op("click", "Delete", "button", anchor="this row")]),
    # deleting the text of a field is clearing it
    ('Delete the text in the Notes field', [op("clear", "Notes", "field")]),
    ('Click into the "Query" editor and delete the query that is in it',
     [op("click", "Query", "field"), op("clear", "Query", "field")]),
    ("Click into the Content editor", [op("click", "Content", "field")]),
    # one verb for several quoted elements that share a place
    ('Untick "Wiki changes" and "Tickets" in the options box', [op("uncheck", "Wiki changes", "checkbox", section="options"),
                                                               op("uncheck", "Tickets", "checkbox", section="options")]),
    ('Click "Save" and "Close"', [op("click", "Save"), op("click", "Close")]),
    # a box named by its quoted label is ticked, never looked for as a text
    ('Tick "Remember me"', [op("check", "Remember me", "checkbox")]),
    # a clipboard operation said with its keys is those keys
    ("Paste with Ctrl+V", [op("press", value="Control+V")]),
    ("Paste it with Ctrl+V into the Search box", [op("press", "Search", "field", "Control+V")]),
    # pointing is hovering; a named element opened again is that element
    ('Point at "View"', [op("hover", "View")]),
    ("Open the main menu again", [op("click", "main menu")]),
    ("Click Try again", [op("click", "Try again")]),
    # what follows an element said by its kind is next to it, never a part of the target's name
    ('Enter "35" in the text box after the operator dropdown', [op("fill", "", "field", "35", "operator dropdown")]),
    ('Type "x" into the field following "Name"', [op("fill", "", "field", "x", "Name")]),
    # how an element looks, before its quoted name, names nothing; "at the left of" is a side
    ('Click the small "+" toggle at the left of the "About Us" row', [op("click", "+", anchor="About Us")]),
    ('Click the blue "Save" button', [op("click", "Save", "button")]),
    ('Click the "+" toggle of the "Our History" row', [op("click", "+", anchor="Our History")]),
    # where a person looks is no part of the name of what shows a value
    ('Verify the Total at the top of the month shows 11,118.62', [op("assert_value", "Total", value="11,118.62")]),
    ('The search box now contains "pnpm i x"', [op("assert_value", "search", "field", "pnpm i x")]),
    ('"Our History" and "Our Team" appear indented under "About Us"',
     [op("assert_indented", "About Us", value="Our History"), op("assert_indented", "About Us", value="Our Team")]),
    ('"Our Team" is nested under "About Us"', [op("assert_indented", "About Us", value="Our Team")]),
    ('Check "Remember me"', [op("check", "Remember me", "checkbox")]),
]


@pytest.mark.parametrize(("sentence", "expected"), FORMS, ids=[s for s, _ in FORMS])
def test_sentence_forms(sentence: str, expected: list[tuple]) -> None:
    cell = "'Saved' is shown" if sentence in ("Check the result", "Check the issues list") else None
    assert read(sentence, cell) == expected


# A check announced by a verb that only looks, the check in the expected cell said of "it" or of a part of the page.
ANNOUNCED = [
    ("Look at the page that opens", 'It reads "120 rows sorted by votes"', "120 rows sorted by votes"),
    ("Read the heading above the search box", 'The heading says "Custom SQL query returning 4 rows"',
     "Custom SQL query returning 4 rows"),
    ("Check the heading", 'It starts with "17 rows where project_id = 5"', "17 rows where project_id = 5"),
    ("Observe the status line", 'The status line shows "120 rows" again', "120 rows"),
]


@pytest.mark.parametrize(("action", "cell", "text"), ANNOUNCED, ids=[a for a, _, _ in ANNOUNCED])
def test_a_look_announces_the_check_in_the_expected_cell(action: str, cell: str, text: str) -> None:
    assert read(action, cell) == [op("assert_text", value=text)]


def test_a_wait_for_a_described_part_announces_the_check_of_the_expected_cell() -> None:
    assert read("Wait for the suggestions to appear", '"Apples" is shown') == [op("assert_text", value="Apples")]
    decision = BuiltinBrain().decide(ScenarioStep(action="Wait for the suggestions to appear"), 0)
    assert decision.unsupported is not None and "says nothing to check" in decision.unsupported


def test_a_look_without_an_expected_result_is_refused() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the page that opens"), 0)
    assert decision.unsupported is not None and "says nothing to check" in decision.unsupported


# Statements that describe where quoted texts are shown check each text; a word that says more is still refused.
DESCRIBED = [
    ('A dialog titled "Login" with a "Username" field and a "Password" field is shown', ["Login", "Username", "Password"]),
    ('A dialog "Configuration" opens with the tabs "PACKAGE MANAGERS" and "TRANSLATIONS"',
     ["PACKAGE MANAGERS", "TRANSLATIONS"]),
    ('A tooltip reading "pnpm install csv-lite@0.3.0" appears', ["pnpm install csv-lite@0.3.0"]),
    ('The node palette on the left lists the "inject", "debug" and "function" nodes', ["inject", "debug", "function"]),
]


@pytest.mark.parametrize(("cell", "texts"), DESCRIBED, ids=[c for c, _ in DESCRIBED])
def test_a_described_statement_checks_each_quoted_text(cell: str, texts: list[str]) -> None:
    assert read("Check the result", cell) == [op("assert_text", value=t) for t in texts]


def test_a_part_of_a_description_that_places_its_text_is_checked_as_a_statement_of_its_own() -> None:
    assert read("Look at the results", '"(3 matches)" is shown next to the heading, "#3" is listed and "Old" is not') == [
        op("assert_beside", role="heading", value="(3 matches)"), op("assert_text", value="#3"),
        op("assert_absent", value="Old")]
    with pytest.raises(AssertionError):  # a part that says more than its own statement can check: refused
        read("Look at the results", '"#3" is listed first and "Old" is not')


def test_names_after_a_hover_are_neither_hovered_nor_checked_but_refused() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action='Hover over "Account", then "Sign out"'), 0)
    assert decision.unsupported is not None and "after a hover" in decision.unsupported


def test_a_check_of_what_a_part_lists_is_never_a_box_to_tick() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(
        action="Check the Install section of the side panel lists npm i x, yarn add x and pnpm add x"), 0)
    assert decision.unsupported is not None and not decision.intents


def test_a_description_that_says_more_than_texts_is_refused() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(
        action="Check the result", expected='A dialog titled "Login" with a lock icon and a "Username" field is shown'), 0)
    assert decision.unsupported is not None and "cannot tell which text" in decision.unsupported


# A row an expected result describes by a text it holds: the texts said with it are in that row.
ROWS = [
    ('The table has a "Starbucks" row with the notes "Team coffee" and a payment of 12.50',
     [op("assert_in_row", "Starbucks", value="Team coffee"), op("assert_in_row", "Starbucks", value="12.50")]),
    ('The page shows the "Groceries" row with 400.00 budgeted and a balance of 565.70',
     [op("assert_in_row", "Groceries", value="400.00"), op("assert_in_row", "Groceries", value="565.70")]),
    # a count said after another text of the statement
    ('The tray shows Property "payload.priority" and three rules: "high", "normal" and "otherwise"',
     [op("assert_count", "high", value="three rules"), op("assert_text", value="payload.priority"),
      op("assert_text", value="high"), op("assert_text", value="normal"), op("assert_text", value="otherwise")]),
    # listed in a titled group together with others, with a number of its own row
    ('"Car Repairs" is listed in the "Savings Goals" group together with "Vacation" and "Emergency Fund", with 0.00 '
     'budgeted',
     [op("assert_in_section", "Savings Goals", value="Car Repairs"), op("assert_in_section", "Savings Goals",
      value="Vacation"), op("assert_in_section", "Savings Goals", value="Emergency Fund"),
      op("assert_in_row", "Car Repairs", value="0.00")]),
    # a name said unquoted before the numbers its row shows; a row said with what kind of row it is
    ('Groceries shows 450.00 budgeted and a balance of 615.70, and the "Everyday Spending" group row shows 760.00',
     [op("assert_in_row", "Groceries", value="450.00"), op("assert_in_row", "Groceries", value="615.70"),
      op("assert_in_row", "Everyday Spending", value="760.00")]),
    ('The row of "Pay rent" shows "Done" and "Buy milk" is listed',
     [op("assert_in_row", "Pay rent", value="Done"), op("assert_text", value="Buy milk")]),
    ('The "Savings" row shows "500.00" and "Cash" is not shown',  # was: all three texts checked absent
     [op("assert_in_row", "Savings", value="500.00"), op("assert_absent", value="Cash")]),
    ('A "Pay rent" row is listed', [op("assert_text", value="Pay rent")]),
    ('The "Pay rent" row is no longer listed', [op("assert_absent", value="Pay rent")]),
    ('"Team coffee" is shown in the row of "Starbucks"', [op("assert_in_row", "Starbucks", value="Team coffee")]),
    # a number said with what it counts, of one row: in that row, short as it is
    ('"Backend" is listed with a usage count of 100',
     [op("assert_text", value="Backend"), op("assert_in_row", "Backend", value="100")]),
    ('The "Backend" row has a budget of 2,500', [op("assert_text", value="Backend"), op("assert_in_row", "Backend", value="2,500")]),
    ('Backend has a usage count of 120 and "Mobile" is not shown',
     [op("assert_text", value="Backend"), op("assert_absent", value="Mobile"), op("assert_in_row", "Backend", value="120")]),
]


@pytest.mark.parametrize(("cell", "expected"), ROWS, ids=[c for c, _ in ROWS])
def test_a_described_row_checks_its_texts_in_that_row(cell: str, expected: list[tuple]) -> None:
    assert read("Look at the table", cell) == expected


def test_a_text_gone_from_one_row_is_refused() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the table",
                                                  expected='The "Savings" row no longer shows "500.00"'), 0)
    assert decision.unsupported is not None and "gone from one row" in decision.unsupported


@pytest.mark.parametrize(("sentence", "target", "anchor", "side"), [
    ('Click the gear icon to the right of the "Installation" heading', "gear", "Installation", "right"),
    ('Click the arrow just left of "Alice"', "arrow", "Alice", "left"),
    ('Hover over the copy icon at the end of the "pip install lxml" line', "copy", "pip install lxml", "right"),
    ('Check the checkbox at the start of the "Someday" row', "", "Someday", "left"),
    ('Click Delete next to "Bob"', "Delete", "Bob", None),
])
def test_a_side_of_an_anchor_is_kept_with_it(sentence, target, anchor, side) -> None:
    intent = BuiltinBrain().decide(ScenarioStep(action=sentence), 0).intents[0]
    assert (intent.target, intent.anchor, intent.side) == (target, anchor, side)


@pytest.mark.parametrize(("cell", "texts"), [
    ('A new filter row labelled "Component" appears in the Filters box', ["Component"]),
    ('The panel on the right shows the package name "left-pad" and the description "Pads strings"',
     ["left-pad", "Pads strings"]),
])
def test_where_a_shown_text_is_said_in_unquoted_words_is_read_past(cell, texts) -> None:
    assert read("Look at the page", cell) == [op("assert_text", value=t) for t in texts]


def test_a_subject_that_picks_one_part_of_many_is_refused_not_read_as_the_whole_page() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the list", expected='The newest entry shows "X"'), 0)
    assert decision.unsupported is not None and "which part of the page" in decision.unsupported


def test_a_row_picked_by_its_order_is_checked_in_that_row_never_on_the_whole_page() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the table", expected='The first row shows "X"'), 0)
    assert [(i.kind, i.value, i.ordinal) for i in decision.intents] == [("assert_row_at", "X", 0)]


def test_rows_in_that_order_are_the_first_rows_each_with_its_words_and_number() -> None:
    assert read("Look at the table", "It has the column \"n\" and its rows are Open 47, \"Won't fix\" 12 and "
                "Closed, in that order") == [
        op("assert_text", value="n"),
        op("assert_row_at", value="Open", ordinal=0), op("assert_row_at", value="47", ordinal=0),
        op("assert_row_at", value="Won't fix", ordinal=1), op("assert_row_at", value="12", ordinal=1),
        op("assert_row_at", value="Closed", ordinal=2)]


@pytest.mark.parametrize(("cell", "expected"), [
    # a thing said in lower-case words, in a part of the page: the text shown, as '"X" is shown on the canvas' says
    ('The node on the canvas now reads "Sunrise"', [op("assert_text", value="Sunrise")]),
    ('The title in the header reads "Dashboard"', [op("assert_text", value="Dashboard")]),
    # a field keeps its label
    ('The Email field shows "a@b.c"', [op("assert_value", "Email", "field", "a@b.c")]),
])
def test_a_thing_in_a_part_of_the_page_that_reads_a_text_is_that_text_shown(cell, expected) -> None:
    assert read("Look at the page", cell) == expected


def test_a_statement_then_what_it_shows_after_a_comma_and_with_is_each_checked() -> None:
    assert read('Click "Show palette"', 'The palette is back, with the "filter nodes" box and the "inject" node '
                'visible') == [op("click", "Show palette"), op("assert_part_shown", value="palette"),
                               op("assert_state", "filter nodes", "field", "visible"), op("assert_text", value="inject")]


def test_a_field_named_by_a_quoted_text_is_shown_when_the_field_is_not_its_name_as_a_text() -> None:
    # its name may be a placeholder, which no text of the page shows; its absence is read the same way
    assert read("Look at the page", 'The "filter nodes" box is shown') == [
        op("assert_state", "filter nodes", "field", "visible")]
    assert read("Look at the page", 'The "filter nodes" box is not shown') == [
        op("assert_absent", "filter nodes", "field")]


@pytest.mark.parametrize(("action", "expected"), [
    # a fronted field: the typing after it goes into it
    ('In the search field, type "shoes"', [op("fill", "search", "field", "shoes")]),
    ('In the "Title" box, enter "Hello" and click "Save"', [op("fill", "Title", "field", "Hello"), op("click", "Save")]),
    # a fronted field before anything else is a place
    ('In the search field, click "x"', [op("click", "x", section="search field")]),
    # one form, several labelled values
    ('Fill the registration form with name "Alice" and email "a@b.c"',
     [op("fill", "name", "field", "Alice"), op("fill", "email", "field", "a@b.c")]),
    ('Fill in the Sign in form with "alice@example.com" as Email and "wonderland" as Password',
     [op("fill", "Email", "field", "alice@example.com"), op("fill", "Password", "field", "wonderland")]),
    # what is shown, and what is not
    ('Verify the results contain "Alpha" but not "Beta" or "Gamma"',
     [op("assert_text", value="Alpha"), op("assert_absent", value="Beta"), op("assert_absent", value="Gamma")]),
    # sorting is a click on the column's header; leaving is a click on the control named so
    ("Sort the table by Name", [op("click", "Name")]),
    ('Sort the results by the "votes" column', [op("click", "votes")]),
    ("Log out", [op("click", "Log out")]),
    # the purpose, then the means
    ('Confirm by clicking "Yes, I\'m sure"', [op("click", "Yes, I'm sure")]),
    ("Close the dialog by pressing Escape", [op("press", value="Escape")]),
    # a switch turned on or off
    ('Turn on the "Dark mode" toggle', [op("check", "Dark mode", "checkbox")]),
    ('Switch the "Notifications" toggle off', [op("uncheck", "Notifications", "checkbox")]),
    # waiting for a notification said by its kind
    ('Click "Deploy" and wait for the "Successfully deployed" notification',
     [op("click", "Deploy"), op("wait_for", value="Successfully deployed")]),
    # found; where on the screen a person looks; the page one is taken to; a field said filled in
    ("Verify that 3 results are found", [op("assert_text", value="3 results")]),
    ('Verify "admin" is shown in the top right corner', [op("assert_text", value="admin")]),
    ('Verify the "Readme" tab is selected by default', [op("assert_state", "Readme", "tab", "selected")]),
    ('Leave the password field empty and click "Sign in"', [op("clear", "password", "field"), op("click", "Sign in")]),
    # a text typed as it is, unquoted, into the field just clicked or said first; never a description of one
    ('Click in the "Value" box and type Platform', [op("click", "Value", "field"), op("fill", "Value", "field", "Platform")]),
    ("In Description, type The share dialog is empty.", [op("fill", "Description", "field", "The share dialog is empty")]),
    # left as it is: checked; a tab gone back to; an absence said of the table or this page
    ('Leave the second dropdown (the operator) on "="', [op("assert_value", "", "dropdown", "=", ordinal=1)]),
    ("Leave the Repeat dropdown set to none", [op("assert_value", "Repeat", "dropdown", "none")]),
    ("Go back to the Dependencies tab", [op("click", "Dependencies", "tab")]),
    ('"Credit note is slow" is not in the table', [op("assert_absent", value="Credit note is slow")]),
    ("Issue 120 should not appear on this page", [op("assert_absent", value="Issue 120")]),
    ('Change the dropdown next to the search box to "Blog posts"',
     [op("select", "", "dropdown", "Blog posts", anchor="search")]),
    # each value in its field; a row named by its quoted text; the page one is on is no place
    ('Type Sam Reed in "Your name" and sam@example.com in "Email"',
     [op("fill", "Your name", "field", "Sam Reed"), op("fill", "Email", "field", "sam@example.com")]),
    ('Tick the checkbox in the row "Five Tips"', [op("check", "", "checkbox", anchor="Five Tips")]),
    ('Click the "tracker" link on the home page', [op("click", "tracker", "link")]),
    # a password alone, unquoted; a field said by its name alone left empty; a cell typed into; offered under a title
    ('In the Category cell type Rest', [op("fill", "Category", "field", "Rest")]),
    ("Leave the Name empty and press Create", [op("clear", "Name", "field"), op("click", "Create")]),
    ('"Vacation" should be offered under the "Savings Goals" heading',
     [op("assert_in_section", "Savings Goals", value="Vacation")]),
    # the means of a purpose; a part every page has; a side said "in front of"; how a control looks
    ("Open the settings dialog with the gear button", [op("click", "gear", "button")]),
    ('Double-click the "Is it dark?" node on the canvas', [op("double_click", "Is it dark?", anchor="canvas")]),
    ('Click the small arrow in front of "Order Processing"', [op("click", "small arrow", anchor="Order Processing")]),
    ("Click the round RAW button", [op("click", "RAW", "button")]),
    ('From the hamburger menu choose "Manage palette"', [op("select", "hamburger", "dropdown", "Manage palette")]),
    ('Open the gear menu in the "email" column header', [op("click", "gear", anchor="email")]),
    ("In the sidebar, click More", [op("click", "More")]),  # a part every page has names no place
    ('Go to the Cash Wallet account and click "Add New"', [op("click", "Cash Wallet", "link"), op("click", "Add New")]),
    ('In the "And" dropdown, pick Component', [op("select", "And", "dropdown", "Component")]),
    ('Click the left arrow (tooltip "Previous month") above the month summary',
     [op("click", "Previous month", anchor="month summary")]),
    # found by review: names with "and", "the menu", words that name no page part, capitalised ordinals
    ('Type "5" into Shipping and Handling in the Costs section', [op("fill", "Shipping and Handling", "field", "5", section="Costs")]),
    ('Select "Copy" from the menu', [op("pick", value="Copy")]),
    ('The location shows "Berlin"', [op("assert_text", value="Berlin")]),
    ('The First Name field contains "Bob"', [op("assert_value", "First Name", "field", "Bob")]),
    # a number written before a comma is the number, never the comma
    ('Verify that the first row of the table is issue 120, "Credit note is slow"',
     [op("assert_row_at", value="Credit note is slow", ordinal=0), op("assert_row_at", value="120", ordinal=0)]),
    # several elements in one state; a title in capitalised words; a notification popping up where one looks
    ('Both "Show palette" and "Show sidebar" are ticked',
     [op("assert_state", "Show palette", value="checked"), op("assert_state", "Show sidebar", value="checked")]),
    ('Verify that "Validate order" now appears under Validation', [op("assert_below", "Validation", value="Validate order")]),
    ('"Tips" is listed in Chosen Categories', [op("assert_in_section", "Chosen Categories", value="Tips")]),
    ('A notification "Deployed" should pop up at the top of the screen', [op("assert_text", value="Deployed")]),
    ('On the "Home Automation" flow, click the "Wake up" node', [op("click", "Wake up", section="Home Automation")]),
    # a title said first, then the texts under it
    ('Under 1.0 Alpha, "Total: 3" is displayed', [op("assert_in_section", "1.0 Alpha", value="Total: 3")]),
    ('Under "Recent Comments", "Just borrowed it" is listed',
     [op("assert_in_section", "Recent Comments", value="Just borrowed it")]),
    ('The heading is "people: 7"', [op("assert_text", value="people: 7")]),
    # being on a page: a check once it says so ("should be", "Verify"), a way there in a step that sets the scene
    ("Verify you are on the Search page", [op("assert_page", value="Search")]),
    ("The user should be on the Roadmap page", [op("assert_page", value="Roadmap")]),
    ("Given I am on the login page", [op("click", "login", "link")]),
])
def test_common_ways_testers_write_a_step(action, expected) -> None:
    assert read(action) == expected


@pytest.mark.parametrize(("action", "cell", "expected"), [
    ('Click "New ticket"', 'I am taken to the "New Ticket" page', [op("assert_page", value="New Ticket")]),
    ('Click "Sign in"', 'The user is redirected to the "Dashboard" page', [op("assert_page", value="Dashboard")]),
    # the page one is on, named as a person calls it; its title; its address
    ('Click "Roadmap"', "The Roadmap page is displayed", [op("assert_page", value="Roadmap")]),
    ('Click "Roadmap"', "The Roadmap page opens", [op("assert_page", value="Roadmap")]),
    ('Click "Log out"', "User is redirected to the login page", [op("assert_page", value="login")]),
    ('Click "Log in"', "The user lands on the dashboard", [op("assert_page", value="dashboard")]),
    ('Click "Save"', "I am on the Roadmap page", [op("assert_page", value="Roadmap")]),
    ('Click "Save"', "You should still be on the Search screen", [op("assert_page", value="Search")]),
    ('Click "Back"', "Goes back to the Roadmap page", [op("assert_page", value="Roadmap")]),
    ('Click "Home"', "It redirects to the home page", [op("assert_page", value="home")]),
    ('Click "Timeline"', 'The page title contains "Timeline"', [op("assert_title", value="Timeline")]),
    ('Click "Timeline"', 'The browser tab title is "Timeline - Lighthouse"',
     [op("assert_title", value="Timeline - Lighthouse")]),
    ('Click "Custom Query"', 'The page heading reads "Custom Query"', [op("assert_title", value="Custom Query")]),
    ('Click "Search"', 'The URL contains "/search?q=bug"', [op("assert_address", value="/search?q=bug")]),
    ('Click "Report"', "The address bar shows /report/1", [op("assert_address", value="/report/1")]),
    # a part of a page stays a part (kinds/assert_part_shown)
    ('Click "Log in"', "The login form is shown", [op("assert_part_shown", value="login form")]),
    ('Click "Edit"', 'The edit form opens with the name "Alice" filled in', [op("assert_value", "name", "field", "Alice")]),
    ('Click "Delete"', 'A confirmation page asks "Are you sure?"', [op("assert_text", value="Are you sure?")]),
    ('Click "Deploy"', 'A notification "Successfully deployed" appears in the top center',
     [op("assert_text", value="Successfully deployed")]),
    ('Click "Details"', 'The "Details" tab is active', [op("assert_state", "Details", "tab", "selected")]),
    ('Click "Details"', 'The "Readme" tab is no longer selected', [op("assert_state", "Readme", "tab", "unselected")]),
    # a noun of what the quoted text is; "as well"
    ('Click "Update"', 'The milestone "1.0 Alpha" now appears as well', [op("assert_text", value="1.0 Alpha")]),
    ('Click "Update"', '"1.0 Alpha" is shown too', [op("assert_text", value="1.0 Alpha")]),
    # texts said hidden stay absent, whatever follows the comma
    # parts of a description split at commas and 'and', each with a verb of its own
    ('Click "Create"', 'Ticket "#13 new enhancement" opens, reported by anonymous and owned by Bob Tanaka',
     [op("assert_text", value="#13 new enhancement"), op("assert_text", value="anonymous"),
      op("assert_text", value="Bob Tanaka")]),
    ('Click "Accounts"', 'Brokerage is listed under "Off budget"', [op("assert_in_section", "Off budget", value="Brokerage")]),
    # controls said with their states after 'with'; texts shown along with others; a count of records said by kind
    ('Click "Export"', 'The "Export nodes" dialog opens with "current flow" chosen and "selected nodes" greyed out',
     [op("assert_text", value="Export nodes"), op("assert_text", value="current flow"),
      op("assert_text", value="selected nodes"), op("assert_state", "current flow", value="selected"),
      op("assert_state", "selected nodes", value="disabled")]),
    ('Click "Deploy"', '"Successfully deployed" appears along with the note "Unused nodes."',
     [op("assert_text", value="Successfully deployed"), op("assert_text", value="Unused nodes.")]),
    ('Click "Search"', 'One result is shown, a function node "convert to celsius"',
     [op("assert_count", "convert to celsius", value="One result"), op("assert_text", value="convert to celsius")]),
    # names in capitals before the kind of several elements, or of a tab: the texts shown on them
    ('Click "LOGIN"', 'A "Login" dialog opens with Username and Password fields',
     [op("assert_text", value="Login"), op("assert_text", value="Username"), op("assert_text", value="Password")]),
    # a statement after 'and' is never part of an unquoted text; a row named in capitals
    ('Click "Budget"', 'The Spent column header shows 1,640.00 and the Utilities row is budgeted 310.00',
     [op("assert_text", value="1,640.00"), op("assert_in_row", "Utilities", value="310.00")]),
    ('Click "Comments"', 'The footer says "4 Comments" and Nina Park\'s "Can adults join too?" is one of the rows',
     [op("assert_text", value="4 Comments"), op("assert_text", value="Can adults join too?")]),
    # names in capitals, several, as the subjects of one verb; gone each on its own (one text never shown passed)
    ('Click "Services"', "Study Rooms and Library Cards are no longer shown",
     [op("assert_absent", value="Study Rooms"), op("assert_absent", value="Library Cards")]),
    # a text listed after a statement goes on with it, never with the statement after it
    ('Click "Bills"', 'The page shows "Rent", "Gas" and "Water" is hidden',
     [op("assert_text", value="Rent"), op("assert_text", value="Gas"), op("assert_absent", value="Water")]),
    ('Click "Save"', '"Saved" appears and Draft, Pending are gone',
     [op("assert_text", value="Saved"), op("assert_absent", value="Draft"), op("assert_absent", value="Pending")]),
    ('Click "Send message"', 'The form is replaced by "Thank you!"', [op("assert_text", value="Thank you!")]),
    ('Hover over "Services"', '"Printing" is in the dropdown', [op("assert_text", value="Printing")]),
    ('Click "x"', '"A" and "C" are hidden again, while "S" is still listed',
     [op("assert_absent", value="A"), op("assert_absent", value="C"), op("assert_text", value="S")]),
    # rows in a column's order
    ('Click "name"', "The rows are sorted by name", [op("assert_sorted", "name", value="ascending")]),
    ('Click "votes"', 'The table is now sorted by "votes" in descending order',
     [op("assert_sorted", "votes", value="descending")]),
    ('Click "Date"', "The results are ordered by the due date column, newest first",
     [op("assert_sorted", "due date", value="descending")]),
])
def test_common_ways_testers_write_an_expected_result(action, cell, expected) -> None:
    assert read(action, cell)[1:] == expected


@pytest.mark.parametrize("action", ["Wait for the page to reload", "Check the row count above the table",
                                    "Check the first group", "Review the rows that remain"])
def test_a_wait_or_a_look_leaves_it_to_the_checks_of_the_expected_cell(action) -> None:
    assert read(action, '"1 comment was removed." is shown') == [op("assert_text", value="1 comment was removed.")]


def test_active_is_a_tab_s_word_only() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Verify the Save button is active"), 0)
    assert decision.unsupported and "active is a tab's word" in decision.unsupported


def test_a_place_in_a_list_is_still_refused_where_a_corner_of_the_screen_is_not() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action='Verify "Franklin" is shown at the top'), 0)
    assert decision.unsupported and "not where" in decision.unsupported


def test_sorting_in_a_said_direction_is_refused_one_click_sorts_the_page_s_way() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Sort the list by date in descending order"), 0)
    assert decision.unsupported and "which way one click sorts" in decision.unsupported


def test_a_fronted_dropdown_is_where_the_option_after_it_is_chosen() -> None:
    assert read('In the "And" dropdown below the Status checkboxes, choose "Component"') == [
        op("select", "And", "dropdown", "Component")]


@pytest.mark.parametrize(("sentence", "target", "again"), [
    ("Click that copy icon", "copy", True), ("Click it", "", True), ("Click This week", "This week", False),
])
def test_that_element_is_the_one_acted_on_before(sentence, target, again) -> None:
    intent = BuiltinBrain().decide(ScenarioStep(action=sentence), 0).intents[0]
    assert (intent.target, intent.again) == (target, again)


@pytest.mark.parametrize(("sentence", "reason"), [
    ("Verify neither Save nor Cancel is enabled", "more than one element"),
    ("Wait until the Save button is enabled", "a condition or a wait"),
    ('Verify "Savings" shows 500.00 available', ""),  # a number's owner said apart from it: refused
])
def test_state_and_number_claims_that_cannot_be_checked_as_said_are_refused(sentence, reason) -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action=sentence), 0)
    assert decision.unsupported is not None and reason in decision.unsupported


@pytest.mark.parametrize(("sentence", "expected"), [
    ('Check the header of the page says "Alice"', [op("assert_text", value="Alice")]),  # not an announcement
    ('Click the "Load more" button at the end of the list', [op("click", "Load more", "button")]),
    ("Click the Edit link of this comment", [op("click", "Edit", "link", anchor="this comment")]),
    ('Click the "Alice" row\'s Edit button (hint: it is the pencil)', [op("click", "Alice row's Edit", "button")]),
])
def test_review_readings(sentence, expected) -> None:
    assert read(sentence) == expected


@pytest.mark.parametrize("sentence", ['Choose "Pages" in the dropdown next to the box (it shows "Everything")',
                                      'Choose "Pages" in the scope dropdown showing "Everything"'])
def test_a_dropdown_named_by_the_option_it_shows(sentence) -> None:
    assert read(sentence) == [op("select", "Everything", "dropdown", "Pages")]


@pytest.mark.parametrize(("action", "cell", "expected"), [
    ('Click "Save"', "The dialog closes",
     [op("assert_part_shown", value="dialog"), op("click", "Save"), op("assert_part_gone", value="dialog")]),
    ('Click "Show palette"', "The palette on the left disappears",
     [op("assert_part_shown", value="palette on the left"), op("click", "Show palette"),
      op("assert_part_gone", value="palette on the left")]),
    ('Press the "Send" button', 'The page shows "Thanks" and the form is gone',
     [op("assert_part_shown", value="form"), op("click", "Send", "button"), op("assert_text", value="Thanks"),
      op("assert_part_gone", value="form")]),
    ('Click "Sign in"', "The page stays on the sign-in form",
     [op("click", "Sign in"), op("assert_part_shown", value="sign-in form")]),
    ('Click "Edit"', 'The "Edit user" dialog is closed',
     [op("assert_part_shown", value='"Edit user" dialog'), op("click", "Edit"),
      op("assert_part_gone", value='"Edit user" dialog')]),
    # a part named by a quoted title, said shown: its title is shown (as before)
    ('Click "Edit"', 'The "Edit user" dialog opens', [op("click", "Edit"), op("assert_text", value="Edit user")]),
])
def test_a_part_of_the_page_said_to_go_is_seen_before_the_step_acts(action, cell, expected) -> None:
    assert read(action, cell) == expected


def test_a_part_said_to_close_before_a_value_is_a_statement_of_its_own() -> None:
    assert read('Click "Done"', 'The tray closes and the node on the canvas now reads "Sunrise"') == [
        op("assert_part_shown", value="tray"), op("click", "Done"), op("assert_part_gone", value="tray"),
        op("assert_text", value="Sunrise")]


def test_a_part_said_gone_in_a_step_that_does_nothing_is_refused() -> None:
    # nothing was found before to see go, and a part not recognised would be "gone" whatever the page shows
    decision = BuiltinBrain().decide(ScenarioStep(action="Verify the dialog is closed"), 0)
    assert decision.unsupported and "only in the step whose action makes it go" in decision.unsupported


@pytest.mark.parametrize("sentence", [
    'Fill in "Your name" with "Sam" and "Email" with "sam@x.com"',
    'Fill in Your name with "Sam" and Email with "sam@x.com"',
    'Fill in the "Your name" field with "Sam", and the "Email" field with "sam@x.com"',
])
def test_one_fill_in_for_two_fields_fills_each_with_its_own_value(sentence) -> None:
    assert read(sentence) == [op("fill", "Your name", "field", "Sam"), op("fill", "Email", "field", "sam@x.com")]


def test_a_value_that_holds_another_field_s_value_is_refused_never_typed() -> None:
    decision = BuiltinBrain().decide(
        ScenarioStep(action='Fill in Name with "Sam" and Email, which is below, with "s@x"'), 0)
    assert decision.unsupported and "not one value" in decision.unsupported


@pytest.mark.parametrize(("sentence", "names"), [
    ('Click "Account" and then "Billing"', ["Account", "Billing"]),
    ('Open "Account", then "Billing"', ["Account", "Billing"]),
])
def test_names_alone_after_an_operation_are_done_the_same_way_never_checked_as_shown(sentence, names) -> None:
    assert read(sentence) == [op("click", name) for name in names]


def test_one_kind_said_in_the_plural_for_several_quoted_names_is_each_one_s() -> None:
    assert read('Untick the "draft", "archived" and "deleted" checkboxes') == [
        op("uncheck", name, "checkbox") for name in ("draft", "archived", "deleted")]
    assert read('Click the "Save" and "Close" buttons') == [op("click", name, "button") for name in ("Save", "Close")]


def test_a_statement_before_an_and_is_never_part_of_a_name() -> None:
    # never the absence of a button named "dialog closes and the Sign in", which no page has
    assert read("Click Save", 'The dialog closes and the "Sign in" button is no longer shown') == [
        op("assert_part_shown", value="dialog"), op("click", "Save"), op("assert_part_gone", value="dialog"),
        op("assert_absent", "Sign in", "button")]


def test_a_name_after_an_operation_and_a_denial_is_never_done() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action='Click "Account" and then not "Billing"'), 0)
    assert not any(i.kind == "click" and i.target == "Billing" for i in decision.intents), decision
