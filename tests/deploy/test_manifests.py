"""The deployment files: k8s/ manifests, docker-compose.yml and infra/Dockerfile, checked offline.

Built-in Kubernetes kinds are validated against the JSON schemas bundled by kubernetes-validate (strict:
unknown fields are errors). KEDA's kinds are custom resources it has no schema for; they are checked
against the small hand-written schemas below (the fields the KEDA CRDs require, plus no unknown ones).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "infra" / "Dockerfile"

# The oldest Kubernetes these manifests claim to work on, and the newest schema set bundled.
K8S_VERSIONS = ("1.28", kubernetes_validate.latest_version())

SECRET_NAME = re.compile(r"PASSWORD|SECRET|TOKEN|API_KEY|ACCESS_KEY|DATABASE_URL|BROKER_URL")
URL_WITH_PASSWORD = re.compile(r"://[^/@\s:]*:[^/@\s]+@")
REQUIRED_COMPOSE_SERVICES = {"api", "registry", "worker", "beat", "redis", "postgres", "minio", "flower", "petclinic"}
# Settings the service will read but that no settings class declares yet (announced for the Celery work).
_KEDA_TRIGGER = {
    "type": "object",
    "required": ["type", "metadata"],
    "additionalProperties": False,
    "properties": {
        "type": {"type": "string", "minLength": 1},
        "name": {"type": "string"},
        "metricType": {"enum": ["AverageValue", "Value", "Utilization"]},
        "useCachedMetrics": {"type": "boolean"},
        # KEDA reads every trigger setting as a string: a bare 5 in YAML is refused by the CRD.
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
        "authenticationRef": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1}, "kind": {"type": "string"}},
        },
    },
}
_METADATA = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string", "minLength": 1}, "labels": {"type": "object"}},
}
KEDA_SCHEMAS = {
    "ScaledObject": {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "properties": {
            "apiVersion": {"const": "keda.sh/v1alpha1"},
            "metadata": _METADATA,
            "spec": {
                "type": "object",
                "required": ["scaleTargetRef", "triggers"],
                "additionalProperties": False,
                "properties": {
                    "scaleTargetRef": {
                        "type": "object",
                        "required": ["name"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string", "minLength": 1},
                            "kind": {"type": "string"},
                            "apiVersion": {"type": "string"},
                            "envSourceContainerName": {"type": "string"},
                        },
                    },
                    "pollingInterval": {"type": "integer", "minimum": 1},
                    "cooldownPeriod": {"type": "integer", "minimum": 0},
                    "initialCooldownPeriod": {"type": "integer", "minimum": 0},
                    "idleReplicaCount": {"type": "integer", "minimum": 0},
                    "minReplicaCount": {"type": "integer", "minimum": 0},
                    "maxReplicaCount": {"type": "integer", "minimum": 1},
                    "fallback": {"type": "object", "required": ["failureThreshold", "replicas"]},
                    "advanced": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "restoreToOriginalReplicaCount": {"type": "boolean"},
                            "scalingModifiers": {"type": "object"},
                            "horizontalPodAutoscalerConfig": {
                                "type": "object",
                                "additionalProperties": False,
                                "properties": {"name": {"type": "string"}, "behavior": {"type": "object"}},
                            },
                        },
                    },
                    "triggers": {"type": "array", "minItems": 1, "items": _KEDA_TRIGGER},
                },
            },
        },
    },
    "TriggerAuthentication": {
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "properties": {
            "apiVersion": {"const": "keda.sh/v1alpha1"},
            "metadata": _METADATA,
            "spec": {
                "type": "object",
                "minProperties": 1,
                "properties": {
                    "secretTargetRef": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "required": ["parameter", "name", "key"],
                            "additionalProperties": False,
                            "properties": {
                                "parameter": {"type": "string", "minLength": 1},
                                "name": {"type": "string", "minLength": 1},
                                "key": {"type": "string", "minLength": 1},
                            },
                        },
                    },
                    "env": {"type": "array"},
                    "podIdentity": {"type": "object"},
                },
            },
        },
    },
}


def _load_k8s() -> list[tuple[str, dict]]:
    documents = []
    for path in sorted(K8S.rglob("*.y*ml")):
        for document in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if document:
                documents.append((path.relative_to(ROOT).as_posix(), document))
    return documents


DOCUMENTS = _load_k8s()
# What `kubectl apply -f k8s/` applies (it does not descend into k8s/alternatives/).
APPLIED = [(path, doc) for path, doc in DOCUMENTS if path.count("/") == 1]


def _id(item: tuple[str, dict]) -> str:
    path, document = item
    return f"{path}:{document.get('kind')}/{document.get('metadata', {}).get('name')}"


def _of_kind(kind: str, documents=APPLIED) -> list[dict]:
    return [doc for _, doc in documents if doc.get("kind") == kind]


def _one(kind: str, name: str) -> dict:
    found = [doc for doc in _of_kind(kind) if doc["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} named {name} in k8s/, found {len(found)}"
    return found[0]


def _containers(deployment: dict) -> list[dict]:
    return deployment["spec"]["template"]["spec"]["containers"]


def _configmap() -> dict[str, str]:
    return _one("ConfigMap", "stepforge-config")["data"]


def _secret() -> dict:
    return _one("Secret", "stepforge-secrets")


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def _seconds(duration: str | int) -> float:
    """A compose duration ("960s", "16m", "1m30s", 960) in seconds."""
    if isinstance(duration, (int, float)):
        return float(duration)
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, f"not a compose duration: {duration!r}"
    return sum(float(number) * units[unit] for number, unit in parts)


def celery_hard_time_limit_from_code() -> float:
    """workers.service.celery_app's hard time limit (the module the manifests start)."""
    from celery import Celery

    module = importlib.import_module("workers.service.celery_app")
    for value in vars(module).values():
        if isinstance(value, Celery) and value.conf.task_time_limit:
            return float(value.conf.task_time_limit)
    for name in ("TASK_HARD_TIME_LIMIT_S", "HARD_TIME_LIMIT_S", "TASK_TIME_LIMIT_S", "TASK_TIME_LIMIT"):
        if isinstance(getattr(module, name, None), (int, float)):
            return float(getattr(module, name))
    pytest.fail("workers/service/celery_app.py exists but sets no task_time_limit: the worker grace period cannot be checked")


# ---------------------------------------------------------------- schemas


def test_k8s_folder_has_the_expected_kinds():
    kinds = {doc["kind"] for _, doc in APPLIED}
    expected = {"Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget", "ScaledObject"}
    assert expected <= kinds, f"missing kinds: {expected - kinds}"
    names = {doc["metadata"]["name"] for doc in _of_kind("Deployment")}
    assert names == {"stepforge-api", "stepforge-registry", "stepforge-worker", "stepforge-beat"}
    for path, doc in DOCUMENTS:
        assert "namespace" not in doc["metadata"], f"{path}: manifests are namespace-less (kubectl -n chooses)"


@pytest.mark.parametrize("version", K8S_VERSIONS)
@pytest.mark.parametrize("item", [d for d in DOCUMENTS if not d[1]["apiVersion"].startswith("keda.sh/")], ids=_id)
def test_builtin_kinds_match_the_kubernetes_schema(item, version):
    path, document = item
    try:
        kubernetes_validate.validate(document, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        where = ".".join(str(p) for p in error.path)
        pytest.fail(f"{_id(item)} is not valid Kubernetes {error.version}: {where}: {error.message}")


@pytest.mark.parametrize("item", [d for d in DOCUMENTS if d[1]["apiVersion"].startswith("keda.sh/")], ids=_id)
def test_keda_kinds_match_the_hand_written_schema(item):
    path, document = item
    assert document["kind"] in KEDA_SCHEMAS, f"{path}: no schema for {document['kind']}"
    jsonschema.validate(document, KEDA_SCHEMAS[document["kind"]])


def test_kubernetes_validate_has_no_schema_for_crds():
    """Why KEDA's kinds get the hand-written schemas: the bundled schemas cover built-in kinds only."""
    document = _one("ScaledObject", "stepforge-worker")
    with pytest.raises(kubernetes_validate.SchemaNotFoundError):
        kubernetes_validate.validate(document, K8S_VERSIONS[-1], strict=True)


# ---------------------------------------------------------------- workloads


@pytest.mark.parametrize("deployment", _of_kind("Deployment"), ids=lambda d: d["metadata"]["name"])
def test_every_container_has_resources_and_keeps_the_entrypoint(deployment):
    for container in _containers(deployment):
        resources = container.get("resources", {})
        assert {"cpu", "memory"} <= set(resources.get("requests", {})), f"{container['name']}: requests"
        assert "memory" in resources.get("limits", {}), f"{container['name']}: memory limit"
        # `command` would replace the image's ENTRYPOINT, and with it tini as PID 1.
        assert "command" not in container and container.get("args"), f"{container['name']}: use args"
    selector = deployment["spec"]["selector"]["matchLabels"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert selector.items() <= labels.items()
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True


@pytest.mark.parametrize("name,port", [("stepforge-api", 8000), ("stepforge-registry", 8100)])
def test_api_and_registry_have_probes_and_a_service(name, port):
    deployment = _one("Deployment", name)
    (container,) = _containers(deployment)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    for probe in ("readinessProbe", "livenessProbe"):
        check = container[probe]["httpGet"]
        assert check["path"] == "/healthz"
        assert ports.get(check["port"], check["port"]) == port
    service = _one("Service", name)
    assert service["spec"]["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    (service_port,) = service["spec"]["ports"]
    assert service_port["port"] == port and ports.get(service_port["targetPort"]) == port


def test_registry_listens_where_its_service_points():
    config = _configmap()
    assert config["STEPFORGE_REGISTRY_HOST"] == "0.0.0.0"
    assert config["STEPFORGE_REGISTRY_PORT"] == "8100"
    assert config["STEPFORGE_REGISTRY_URL"] == "http://stepforge-registry:8100"


def test_worker_grace_period_exceeds_the_celery_hard_time_limit():
    config = _configmap()
    soft = float(config["STEPFORGE_TASK_SOFT_TIME_LIMIT_S"])
    hard = float(config["STEPFORGE_TASK_HARD_TIME_LIMIT_S"])
    assert soft < hard
    from_code = celery_hard_time_limit_from_code()
    limit = max(hard, from_code or 0.0)
    worker = _one("Deployment", "stepforge-worker")
    grace = worker["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert grace > limit, f"terminationGracePeriodSeconds {grace} must exceed the hard time limit {limit}"
    assert grace == 960
    (container,) = _containers(worker)
    assert container["args"][:5] == ["celery", "-A", "workers.service.celery_app", "worker", "--concurrency=2"]
    assert worker_queues(container["args"]) == expected_worker_queues()
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in worker["spec"]["template"]["spec"]["volumes"]}
    assert volumes[mounts["/dev/shm"]]["emptyDir"]["medium"] == "Memory", "Chromium needs a real /dev/shm"
    # Pinned replicas would fight the autoscaler on every `kubectl apply`.
    assert "replicas" not in worker["spec"]


def test_beat_runs_exactly_once():
    beat = _one("Deployment", "stepforge-beat")
    assert beat["spec"]["replicas"] == 1
    assert beat["spec"]["strategy"]["type"] == "Recreate"
    assert _containers(beat)[0]["args"][:4] == ["celery", "-A", "workers.service.celery_app", "beat"]


def test_disruption_budgets_cover_workers_and_api():
    covered = set()
    for budget in _of_kind("PodDisruptionBudget"):
        selector = budget["spec"]["selector"]["matchLabels"]
        for deployment in _of_kind("Deployment"):
            if selector.items() <= deployment["spec"]["template"]["metadata"]["labels"].items():
                covered.add(deployment["metadata"]["name"])
    assert {"stepforge-worker", "stepforge-api"} <= covered


# ---------------------------------------------------------------- autoscaling


def test_workers_scale_on_queued_plus_running_jobs():
    scaled = _one("ScaledObject", "stepforge-worker")
    assert _one("Deployment", scaled["spec"]["scaleTargetRef"]["name"])
    triggers = {t["type"]: t for t in scaled["spec"]["triggers"]}
    assert {"postgresql", "redis"} <= set(triggers)
    database = triggers["postgresql"]["metadata"]
    query = database["query"].lower()
    assert "count(" in query and "'queued'" in query and "'running'" in query and "from job" in query
    # Jobs per pod = the worker's concurrency.
    assert float(database["targetQueryValue"]) == 2
    assert triggers["redis"]["metadata"]["listName"] == "celery"
    secret_keys = set(_secret()["stringData"])
    for trigger in scaled["spec"]["triggers"]:
        auth = _one("TriggerAuthentication", trigger["authenticationRef"]["name"])
        for ref in auth["spec"]["secretTargetRef"]:
            assert ref["name"] == "stepforge-secrets" and ref["key"] in secret_keys
    assert scaled["spec"]["advanced"]["horizontalPodAutoscalerConfig"]["behavior"]["scaleDown"]


def test_the_scaling_query_matches_the_job_table():
    """The KEDA query names the service's real table, column and states (shared/models.py)."""
    if not (ROOT / "shared" / "models.py").exists():
        pytest.skip("shared/models.py (the service's tables) does not exist yet")
    models = importlib.import_module("shared.models")
    assert {"queued", "running"} <= set(models.JOB_STATES)
    assert models.Job.__tablename__ == "job" and "state" in models.Job.__table__.columns


def test_the_hpa_alternative_targets_the_worker_and_is_not_applied_by_default():
    hpas = _of_kind("HorizontalPodAutoscaler", DOCUMENTS)
    assert hpas and not _of_kind("HorizontalPodAutoscaler")  # only under k8s/alternatives/
    (hpa,) = hpas
    assert hpa["spec"]["scaleTargetRef"]["name"] == "stepforge-worker"
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "External"


# ---------------------------------------------------------------- secrets


def test_secret_holds_only_placeholders_in_string_data():
    secret = _secret()
    assert "data" not in secret and secret["stringData"]
    for key, value in secret["stringData"].items():
        assert "REPLACE_ME" in value, f"{key} is not a placeholder"


def test_no_secret_outside_secret_objects():
    config = _configmap()
    for key, value in config.items():
        assert not SECRET_NAME.search(key), f"ConfigMap holds {key}: it belongs in the Secret"
        assert not URL_WITH_PASSWORD.search(value), f"ConfigMap {key} carries a password"
    secret_keys = set(_secret()["stringData"])
    for deployment in _of_kind("Deployment"):
        for container in _containers(deployment):
            where = f"{deployment['metadata']['name']}/{container['name']}"
            for source in container.get("envFrom", []):
                assert set(source) == {"configMapRef"}, f"{where}: secrets by name only (secretKeyRef)"
            for variable in container.get("env", []):
                if "value" in variable:
                    assert not SECRET_NAME.search(variable["name"]), f"{where}: {variable['name']} is a literal"
                    assert not URL_WITH_PASSWORD.search(str(variable["value"])), f"{where}: password in a URL"
                else:
                    ref = variable["valueFrom"].get("secretKeyRef")
                    if ref:
                        assert ref["name"] == "stepforge-secrets" and ref["key"] in secret_keys, where
                if SECRET_NAME.search(variable["name"]):
                    assert "secretKeyRef" in variable.get("valueFrom", {}), f"{where}: {variable['name']}"


def test_setting_names_are_ones_the_service_reads():
    """A mistyped STEPFORGE_* name would be ignored silently (the settings classes ignore extras)."""
    from api.registry.settings import RegistrySettings
    from shared.service_settings import ServiceSettings

    known = {"STEPFORGE_" + field.upper() for field in ServiceSettings.model_fields}
    known |= {"STEPFORGE_REGISTRY_" + field.upper() for field in RegistrySettings.model_fields}
    names = set(_configmap()) | set(_secret()["stringData"])
    names |= set(_compose()["x-env"])
    unknown = {name for name in names if name.startswith("STEPFORGE_")} - known
    assert not unknown, f"settings no class declares: {sorted(unknown)}"


# ---------------------------------------------------------------- docker compose


def test_compose_has_every_service_and_valid_dependencies():
    compose = _compose()
    services = compose["services"]
    assert REQUIRED_COMPOSE_SERVICES <= set(services)
    for name, service in services.items():
        for dependency, rule in service.get("depends_on", {}).items():
            assert dependency in services, f"{name} depends on unknown {dependency}"
            assert rule["condition"] in {"service_started", "service_healthy", "service_completed_successfully"}
            if rule["condition"] == "service_healthy":
                assert "healthcheck" in services[dependency], f"{dependency} has no healthcheck"
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    env = services["api"]["environment"]
    for name in ("registry", "worker", "beat"):
        assert services[name]["environment"] == env, f"{name} does not use the shared x-env"
    assert env == compose["x-env"]
    for name in ("api", "registry", "worker", "beat", "petclinic"):
        assert services[name]["build"]["dockerfile"] == "infra/Dockerfile"
    assert "--host" in services["petclinic"]["command"] and "0.0.0.0" in services["petclinic"]["command"]
    declared = set(compose["volumes"])
    for name, data in (("postgres", "/var/lib/postgresql/data"), ("minio", "/data")):
        (volume,) = [v for v in services[name]["volumes"] if v.endswith(":" + data)]
        assert volume.split(":")[0] in declared


def test_compose_worker_outlives_the_hard_time_limit():
    compose = _compose()
    env = compose["x-env"]
    hard = float(env["STEPFORGE_TASK_HARD_TIME_LIMIT_S"])
    assert float(env["STEPFORGE_TASK_SOFT_TIME_LIMIT_S"]) < hard
    assert env["STEPFORGE_TASK_HARD_TIME_LIMIT_S"] == _configmap()["STEPFORGE_TASK_HARD_TIME_LIMIT_S"]
    limit = max(hard, celery_hard_time_limit_from_code() or 0.0)
    worker = compose["services"]["worker"]
    assert _seconds(worker["stop_grace_period"]) > limit
    assert _seconds(worker["stop_grace_period"]) == 960
    assert worker["shm_size"]
    assert worker["command"][:6] == ["celery", "-A", "workers.service.celery_app", "worker", "--concurrency=2",
                                     "--loglevel=INFO"]
    assert worker_queues(worker["command"]) == expected_worker_queues()


def worker_queues(args: list[str]) -> list[str]:
    """The queues a `celery ... worker` command consumes (-Q a,b / --queues=a,b); [] when it names none."""
    for index, arg in enumerate(args):
        if arg in ("-Q", "--queues") and index + 1 < len(args):
            return args[index + 1].split(",")
        if arg.startswith("--queues="):
            return arg.split("=", 1)[1].split(",")
    return []


def expected_worker_queues() -> list[str]:
    """Generation jobs and webhook deliveries: the service's default queue names (shared/service_settings.py)."""
    from shared.service_settings import ServiceSettings

    defaults = ServiceSettings.model_fields
    return [defaults["queue"].default, defaults["webhook_queue"].default]


def test_compose_flower_asks_for_a_password():
    flower = _compose()["services"]["flower"]
    auth = [arg for arg in flower["command"] if arg.startswith("--basic-auth=")]
    assert auth == ["--basic-auth=${FLOWER_BASIC_AUTH:-stepforge:flower-dev}"]


def test_compose_creates_the_bucket_in_an_init_service():
    compose = _compose()
    services = compose["services"]
    bucket = compose["x-env"]["STEPFORGE_S3_BUCKET"]
    inits = [name for name, service in services.items() if service.get("image", "").startswith("minio/mc")]
    assert inits, "no minio/mc service"
    (init,) = inits
    command = " ".join(services[init]["command"])
    assert "mc mb" in command and "--ignore-existing" in command
    assert services[init]["environment"]["BUCKET"] == bucket
    assert services[init]["depends_on"]["minio"]["condition"] == "service_healthy"
    for user in ("api", "worker"):
        assert services[user]["depends_on"][init]["condition"] == "service_completed_successfully"


# ---------------------------------------------------------------- Dockerfile


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    logical, current = [], ""
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        current += " " + stripped.rstrip("\\").strip() if current else stripped.rstrip("\\").strip()
        if not stripped.endswith("\\"):
            logical.append(current)
            current = ""
    assert not current, "Dockerfile ends inside a continuation"
    return [(text.split(None, 1)[0].upper(), text.split(None, 1)[1] if " " in text else "") for text in logical]


def test_dockerfile_builds_the_service_image():
    instructions = _instructions()
    froms = [args for op, args in instructions if op == "FROM"]
    base = froms[0].split()[0]
    assert base.startswith(("python:3.12-slim", "python:3.13-slim", "debian:")), base
    # bookworm's nodejs is 18; @cucumber/cucumber 12 needs Node 20+.
    assert "bookworm" not in base
    stages = {args.split()[-1] for args in froms if " AS " in args.upper()}
    assert {"app", "demo"} <= stages
    assert froms[-1].split()[-1] == "app", "a plain docker build must give the service image"

    runs = [args for op, args in instructions if op == "RUN"]
    (apt,) = [run for run in runs if "apt-get install" in run]
    packages = set(apt.split())
    assert {"chromium", "chromium-headless-shell", "nodejs", "npm", "tini"} <= packages
    assert any(p.startswith("fonts-") for p in packages)
    assert any("pip install ." in run for run in runs)

    env = " ".join(args for op, args in instructions if op == "ENV")
    assert "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1" in env
    assert "STEPFORGE_NODE_RUNTIME_DIR=/opt/stepforge/node" in env
    assert "STEPFORGE_BROWSER_PATH=/usr/bin/chromium" in env

    users = [(i, args) for i, (op, args) in enumerate(instructions) if op == "USER"]
    assert users and users[-1][1] not in {"root", "0"}
    node_step = next(i for i, (op, args) in enumerate(instructions) if "workers.agent.verify.node_runtime" in args)
    assert instructions[node_step][0] == "RUN"
    # Installed by the user that replays with it, so the runtime's lock and stamp files are its own.
    last_user_before = [args for i, args in users if i < node_step][-1]
    assert last_user_before not in {"root", "0"}

    (entrypoint,) = [args for op, args in instructions if op == "ENTRYPOINT"]
    assert "tini" in entrypoint


def test_dockerignore_keeps_local_state_out():
    ignored = set((ROOT / ".dockerignore").read_text(encoding="utf-8").split())
    assert {".venv", "artifacts", "suite", "node_modules", ".git"} <= ignored


def test_worker_egress_refuses_every_cloud_metadata_endpoint_the_guard_refuses():
    """The network-level wall behind the egress guard: worker pods reach no metadata endpoint, link-local or
    private address, whatever the guard's settings."""
    import ipaddress

    from shared.urls import CLOUD_METADATA

    (policy,) = [doc for doc in _of_kind("NetworkPolicy") if doc["metadata"]["name"] == "stepforge-worker-egress"]
    assert policy["spec"]["policyTypes"] == ["Egress"]
    assert policy["spec"]["podSelector"]["matchLabels"]["app.kubernetes.io/component"] == "worker"
    open_blocks = [peer["ipBlock"] for rule in policy["spec"]["egress"] for peer in rule["to"]
                   if "ipBlock" in peer and "except" in peer["ipBlock"]]
    assert {block["cidr"] for block in open_blocks} == {"0.0.0.0/0", "::/0"}
    refused = [ipaddress.ip_network(cidr) for block in open_blocks for cidr in block["except"]]
    for network, what in CLOUD_METADATA:
        assert any(network.subnet_of(r) for r in refused if r.version == network.version), what
    for private in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"):
        assert ipaddress.ip_network(private) in refused
