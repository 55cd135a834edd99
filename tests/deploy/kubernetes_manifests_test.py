#!/usr/bin/env python3
"""deploy/kubernetes/*.yaml against the server they deploy, at the schema level: Kubernetes
cannot run here, nor can podman kube play on these build machines (docs/scaling.md says
why); the image itself is run by tests/deploy/container_test.cc. Required fields; labels and selectors that agree; probes, ports and the
settings' environment variables that the server really has; the drain inside the grace
period; the resource figures docs/scaling.md gives; the Indexed Job over the table it names.
Run from the repository root (ctest does). Skipped, saying why, without python3-yaml,
unless CLAMSIM_REQUIRE_CONTAINER=yes (CI)."""

import csv
import json
import os
import re
import sys
import unittest

try:
    import yaml
except ImportError:  # pragma: no cover - the environment decides
    yaml = None

ROOT = os.getcwd()
KUBE = os.path.join(ROOT, "deploy", "kubernetes")


def load_all():
    docs = []
    for name in sorted(os.listdir(KUBE)):
        if name.endswith(".yaml"):
            with open(os.path.join(KUBE, name)) as f:
                for doc in yaml.safe_load_all(f):
                    if doc is not None:
                        docs.append((name, doc))
    return docs


def one(docs, kind):
    found = [d for _, d in docs if d["kind"] == kind]
    assert len(found) == 1, f"{len(found)} {kind}s"
    return found[0]


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def matches(selector, labels):
    return all(labels.get(k) == v for k, v in selector.items())


@unittest.skipIf(yaml is None and os.environ.get("CLAMSIM_REQUIRE_CONTAINER") != "yes",
                 "python3-yaml is not installed (scripts/setup.sh --tests installs it)")
class Manifests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if yaml is None:
            raise AssertionError("python3-yaml is not installed (scripts/setup.sh --tests)")
        cls.docs = load_all()
        cls.deploy = one(cls.docs, "Deployment")
        cls.pod = cls.deploy["spec"]["template"]
        cls.server = cls.pod["spec"]["containers"][0]
        with open(os.path.join(ROOT, "deploy", "container", "server.json")) as f:
            cls.server_json = json.load(f)
        with open(os.path.join(ROOT, "docs", "deploy.md")) as f:
            cls.settings = set(re.findall(r"`(CLAMSIM_[A-Z0-9_]+)`", f.read()))
        with open(os.path.join(ROOT, "docs", "scaling.md")) as f:
            cls.scaling = f.read()

    def test_every_object_has_the_required_fields(self):
        known = {"Deployment": "apps/v1", "Service": "v1", "PodDisruptionBudget": "policy/v1",
                 "HorizontalPodAutoscaler": "autoscaling/v2", "Ingress": "networking.k8s.io/v1",
                 "Job": "batch/v1"}
        kinds = set()
        for name, d in self.docs:
            self.assertIn(d.get("kind"), known, name)
            self.assertEqual(d.get("apiVersion"), known[d["kind"]], name)
            self.assertTrue(d.get("metadata", {}).get("name"), name)
            self.assertIn("spec", d, name)
            kinds.add(d["kind"])
        self.assertEqual(kinds, set(known))

    def test_selectors_agree_with_the_pod_labels(self):
        labels = self.pod["metadata"]["labels"]
        self.assertTrue(matches(self.deploy["spec"]["selector"]["matchLabels"], labels))
        services = [d for _, d in self.docs if d["kind"] == "Service"]
        self.assertEqual(len(services), 2)
        for s in services:
            self.assertTrue(matches(s["spec"]["selector"], labels), s["metadata"]["name"])
        pdb = one(self.docs, "PodDisruptionBudget")
        self.assertTrue(matches(pdb["spec"]["selector"]["matchLabels"], labels))
        anti = self.pod["spec"]["affinity"]["podAntiAffinity"]
        for term in anti["requiredDuringSchedulingIgnoredDuringExecution"]:
            self.assertTrue(matches(term["labelSelector"]["matchLabels"], labels))
        hpa = one(self.docs, "HorizontalPodAutoscaler")
        self.assertEqual(hpa["spec"]["scaleTargetRef"]["kind"], "Deployment")
        self.assertEqual(hpa["spec"]["scaleTargetRef"]["name"], self.deploy["metadata"]["name"])

    def test_ports_and_probes_are_the_servers(self):
        ports = {p["name"]: p["containerPort"] for p in self.server["ports"]}
        self.assertEqual(ports["http"], self.server_json["http_port"])
        self.assertEqual(ports["corba"], self.server_json["corba_port"])
        ready, live = self.server["readinessProbe"], self.server["livenessProbe"]
        self.assertEqual(ready["httpGet"]["path"], "/readyz")
        self.assertEqual(live["httpGet"]["path"], "/livez")
        for probe in (ready, live):
            self.assertIn(probe["httpGet"]["port"], ports)
        for s in (d for _, d in self.docs if d["kind"] == "Service"):
            for p in s["spec"]["ports"]:
                self.assertIn(p["targetPort"], ports, s["metadata"]["name"])
        ingress = one(self.docs, "Ingress")
        web = next(d for _, d in self.docs if d["kind"] == "Service" and
                   any(p["targetPort"] == "http" for p in d["spec"]["ports"]))
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                self.assertEqual(backend["name"], web["metadata"]["name"])
                self.assertIn(backend["port"]["name"], [p["name"] for p in web["spec"]["ports"]])

    def test_every_setting_is_one_the_server_has(self):
        for name in env_of(self.server):
            if name.startswith("CLAMSIM_"):
                self.assertIn(name, self.settings, "not a setting in docs/deploy.md's table")

    def test_the_drain_fits_the_grace_period(self):
        drain = int(env_of(self.server)["CLAMSIM_DRAIN_SECONDS"])
        pre_stop = self.server["lifecycle"]["preStop"]["exec"]["command"]
        self.assertEqual(pre_stop[0], "sleep")
        grace = self.pod["spec"]["terminationGracePeriodSeconds"]
        self.assertGreaterEqual(grace, drain + int(pre_stop[1]) + 5)

    def test_tls_for_wss_and_the_host_the_server_allows(self):
        ingress = one(self.docs, "Ingress")
        tls_hosts = {h for t in ingress["spec"]["tls"] for h in t["hosts"]}
        self.assertTrue(all(t.get("secretName") for t in ingress["spec"]["tls"]))
        allowed = env_of(self.server)["CLAMSIM_HTTP_ALLOWED_HOSTS"].split(",")
        for rule in ingress["spec"]["rules"]:
            self.assertIn(rule["host"], tls_hosts)
            self.assertIn(rule["host"], allowed)

    def test_resources_are_the_documented_ones(self):
        res = self.server["resources"]
        sessions = env_of(self.server)["CLAMSIM_MAX_SESSIONS"]
        for figure in (f"requests.cpu: {res['requests']['cpu']}",
                       f"limits.cpu: {res['limits']['cpu']}",
                       f"requests.memory: {res['requests']['memory']}",
                       f"limits.memory: {res['limits']['memory']}",
                       f"CLAMSIM_MAX_SESSIONS={sessions}"):
            self.assertIn(figure, self.scaling, "docs/scaling.md does not give " + figure)

    def test_the_indexed_job_runs_every_row_of_its_table(self):
        job = one(self.docs, "Job")
        spec = job["spec"]
        self.assertEqual(spec["completionMode"], "Indexed")
        c = spec["template"]["spec"]["containers"][0]
        args = c["args"]
        self.assertNotIn("--index", args)  # JOB_COMPLETION_INDEX says which row
        table = args[args.index("--batch") + 1]
        self.assertTrue(table.startswith("config/batch/"))
        self.assertEqual(c["workingDir"], "/usr/share/clamsim")
        with open(os.path.join(ROOT, table)) as f:
            rows = sum(1 for _ in csv.DictReader(f))
        self.assertEqual(spec["completions"], rows)
        self.assertEqual(spec["template"]["spec"]["restartPolicy"], "Never")


SKIPPED = 77  # ctest's SKIP_RETURN_CODE (tests/deploy/CMakeLists.txt): shown as Skipped

if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    sys.exit(SKIPPED if result.skipped and result.testsRun == len(result.skipped) else 0)
