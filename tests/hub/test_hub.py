#!/usr/bin/env python3
"""Claim: vitviz-cli opens a model named hf-hub:ORG/NAME as huggingface_hub
would: from a stand-in Hub on 127.0.0.1 (stand_in_hub.py) into a cache laid
out as huggingface_hub lays it, from that cache with no Hub, and with one line
naming the repository and the file for every failure, leaving nothing in
snapshots/ that a later run would take as the model. Nothing reaches the
internet. With the app's path too, the app does the same under Xvfb: a tour
and a lesson of a model named hf-hub:, and its window's own check of which
gallery models the cache holds, and a lesson on a Hub model playing the
lesson it names otherwise when the model cannot be had.
Usage: test_hub.py VITVIZ_CLI FIXTURES_DIR [VITVIZ XVFB_RUN]
"""
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stand_in_hub import Hub, git_blob_sha1  # noqa: E402

CLI, FIXTURES = sys.argv[1], sys.argv[2]
APP, XVFB_RUN = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else (None, None)
TIMM = os.path.join(FIXTURES, "timm_f32")
HF = os.path.join(FIXTURES, "hf_bf16")
IMAGE = os.path.join(TIMM, "image.png")
TOKEN = "hf_secret_token_for_the_tests"
CLOSED_PORT_ENDPOINT = "http://127.0.0.1:9"  # the discard port: nothing listens there
PROGRESS = re.compile(r": \S+ [0-9.]+ of [0-9.]+ [kM]B")  # "hf-hub:ORG/NAME: FILE 1.2 of 3.4 MB..."


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def pickle_only_folder():
    folder = tempfile.mkdtemp()
    shutil.copy(os.path.join(TIMM, "config.json"), folder)
    with open(os.path.join(folder, "pytorch_model.bin"), "wb") as f:
        f.write(b"not read")
    return folder


class HubFixture(unittest.TestCase):
    """The stand-in Hub, a fresh HF_HOME per test, and the helpers the tests share."""
    @classmethod
    def setUpClass(cls):
        cls.pickle_folder = pickle_only_folder()
        cls.hub = Hub({"test/timm-tiny": TIMM, "test/hf-tiny": HF, "test/gated": TIMM,
                       "test/pickled": cls.pickle_folder}, gated={"test/gated": TOKEN}).start()

    @classmethod
    def tearDownClass(cls):
        cls.hub.stop()
        shutil.rmtree(cls.pickle_folder)

    def setUp(self):
        self.home = tempfile.mkdtemp()
        self.cache = os.path.join(self.home, "hub")
        self.hub.faults.clear()
        del self.hub.log[:]

    def tearDown(self):
        shutil.rmtree(self.home)

    def cli(self, model, endpoint=None, extra_env=None, limit_file_kb=None, image=IMAGE):
        env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
        env.update(HF_HOME=self.home, HF_ENDPOINT=endpoint or self.hub.endpoint, **(extra_env or {}))
        command = [CLI, "--model", model, "--image", image, "--top", "3"]
        if limit_file_kb:
            command = ["bash", "-c", 'trap "" XFSZ; ulimit -f %d; exec "$@"' % limit_file_kb, "--"] + command
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr

    def repo_folder(self, repo):
        return os.path.join(self.cache, "models--" + repo.replace("/", "--"))

    def snapshot_files(self, repo):
        found = []
        for root, _, files in os.walk(os.path.join(self.repo_folder(repo), "snapshots")):
            found += [os.path.join(root, f) for f in files]
        return found

    def assert_one_line(self, stderr, *parts):
        """stderr, leaving out the progress lines, is one line holding each of `parts`."""
        lines = [l for l in stderr.splitlines() if l.strip() and not PROGRESS.search(l)]
        self.assertEqual(len(lines), 1, stderr)
        for part in parts:
            self.assertIn(part, lines[0])


class HubTest(HubFixture):
    def test_a_blob_another_download_holds_waits_for_huggingface_hubs_lock(self):
        """huggingface_hub flocks .locks/models--ORG--NAME/<etag>.lock while it writes a blob: the app waits."""
        sha = hashlib.sha256(read_bytes(os.path.join(TIMM, "model.safetensors"))).hexdigest()
        lock_path = os.path.join(self.cache, ".locks", "models--test--timm-tiny", sha + ".lock")
        os.makedirs(os.path.dirname(lock_path))
        held = open(lock_path, "w")
        fcntl.flock(held, fcntl.LOCK_EX)  # as Python's download holds it
        release = threading.Timer(1.5, held.close)  # closing the file releases the lock
        release.start()
        start = time.monotonic()
        rc, out, err = self.cli("hf-hub:test/timm-tiny")
        waited = time.monotonic() - start
        release.join()
        self.assertEqual(rc, 0, err)
        self.assertGreaterEqual(waited, 1.4, "the download did not wait for the lock")
        self.assertEqual(out, self.cli(TIMM)[1])

    def test_a_download_answers_as_the_same_files_opened_from_a_folder(self):
        for repo, folder in (("test/timm-tiny", TIMM), ("test/hf-tiny", HF)):
            image = IMAGE if folder == TIMM else os.path.join(HF, "image.png")
            rc, out, err = self.cli("hf-hub:" + repo, image=image)
            self.assertEqual(rc, 0, err)
            rc_dir, out_dir, _ = self.cli(folder, image=image)
            self.assertEqual(rc_dir, 0)
            self.assertEqual(out, out_dir)
            self.assertIn("model.safetensors", err)  # the progress line

    def test_the_cache_is_laid_out_as_huggingface_hub_lays_it(self):
        self.assertEqual(self.cli("hf-hub:test/hf-tiny", image=os.path.join(HF, "image.png"))[0], 0)
        repo = self.repo_folder("test/hf-tiny")
        commit = self.hub.commits["test/hf-tiny"]
        with open(os.path.join(repo, "refs", "main")) as f:
            self.assertEqual(f.read(), commit)
        snapshot = os.path.join(repo, "snapshots", commit)
        self.assertEqual(sorted(os.listdir(snapshot)), ["config.json", "model.safetensors", "preprocessor_config.json"])
        weights = os.path.join(snapshot, "model.safetensors")
        sha = hashlib.sha256(read_bytes(os.path.join(HF, "model.safetensors"))).hexdigest()
        self.assertTrue(os.path.islink(weights))
        self.assertEqual(os.readlink(weights), "../../blobs/" + sha)
        config = os.readlink(os.path.join(snapshot, "config.json"))
        self.assertRegex(config, r"^\.\./\.\./blobs/[0-9a-f]{40}$")
        self.assertFalse([f for f in os.listdir(os.path.join(repo, "blobs")) if "." in f])  # no temporary left

    def test_a_cache_written_by_huggingface_hub_opens_with_no_hub_and_offline(self):
        commit = "0123456789abcdef0123456789abcdef01234567"
        repo = self.repo_folder("test/written-by-python")
        os.makedirs(os.path.join(repo, "blobs"))
        os.makedirs(os.path.join(repo, "snapshots", commit))
        os.makedirs(os.path.join(repo, "refs"))
        with open(os.path.join(repo, "refs", "main"), "w") as f:
            f.write(commit)
        for name in ("config.json", "model.safetensors"):
            data = read_bytes(os.path.join(TIMM, name))
            etag = hashlib.sha256(data).hexdigest() if name.endswith(".safetensors") else git_blob_sha1(data)
            with open(os.path.join(repo, "blobs", etag), "wb") as f:
                f.write(data)
            os.symlink("../../blobs/" + etag, os.path.join(repo, "snapshots", commit, name))
        expected = self.cli(TIMM)[1]
        for env in ({}, {"HF_HUB_OFFLINE": "1"}):
            rc, out, err = self.cli("hf-hub:test/written-by-python", endpoint=CLOSED_PORT_ENDPOINT, extra_env=env)
            self.assertEqual((rc, out), (0, expected), err)
        rc, out, err = self.cli("hf-hub:test/written-by-python@" + commit, endpoint=CLOSED_PORT_ENDPOINT)
        self.assertEqual((rc, out), (0, expected), err)

    def test_offline_or_hub_down_with_nothing_cached_is_one_line(self):
        rc, _, err = self.cli("hf-hub:test/timm-tiny", extra_env={"HF_HUB_OFFLINE": "1"})
        self.assertEqual(rc, 1)
        self.assert_one_line(err, "hf-hub:test/timm-tiny", "HF_HUB_OFFLINE")
        rc, _, err = self.cli("hf-hub:test/timm-tiny", endpoint=CLOSED_PORT_ENDPOINT)
        self.assertEqual(rc, 1)
        self.assert_one_line(err, "hf-hub:test/timm-tiny", "cannot be reached", "not in the cache")
        self.assertEqual(self.hub.log, [])

    def test_hub_down_after_a_download_opens_the_cached_copy(self):
        self.assertEqual(self.cli("hf-hub:test/timm-tiny")[0], 0)
        rc, out, err = self.cli("hf-hub:test/timm-tiny", endpoint=CLOSED_PORT_ENDPOINT)
        self.assertEqual((rc, out), (0, self.cli(TIMM)[1]), err)

    def test_a_cut_download_leaves_nothing_in_snapshots_and_the_next_run_resumes(self):
        self.hub.faults["model.safetensors"] = "cut"
        rc, _, err = self.cli("hf-hub:test/timm-tiny")
        self.assertEqual(rc, 1)
        self.assert_one_line(err, "hf-hub:test/timm-tiny: model.safetensors", "cut short")
        self.assertNotIn("model.safetensors", [os.path.basename(f) for f in self.snapshot_files("test/timm-tiny")])
        self.hub.faults.clear()
        rc, out, err = self.cli("hf-hub:test/timm-tiny")
        self.assertEqual((rc, out), (0, self.cli(TIMM)[1]), err)
        self.assertTrue(any(method == "GET" and path.startswith("/cdn/") for method, path, _ in self.hub.log))

    def test_a_wrong_hash_keeps_nothing(self):
        self.hub.faults["model.safetensors"] = "corrupt"
        rc, _, err = self.cli("hf-hub:test/timm-tiny")
        self.assertEqual(rc, 1)
        self.assertIn("hf-hub:test/timm-tiny: model.safetensors: the file that arrived differs", err)
        self.assertIn("not kept", err)
        self.assertNotIn("model.safetensors", [os.path.basename(f) for f in self.snapshot_files("test/timm-tiny")])
        blobs = os.listdir(os.path.join(self.repo_folder("test/timm-tiny"), "blobs"))
        self.assertEqual(len(blobs), 1)  # config.json's, checked and whole

    def test_a_missing_repository_or_revision_is_one_line_naming_it(self):
        for model in ("hf-hub:test/no-such-model", "hf-hub:test/timm-tiny@no-such-branch"):
            rc, _, err = self.cli(model)
            self.assertEqual(rc, 1)
            self.assert_one_line(err, model + ": config.json", "404")
            self.assertEqual(self.snapshot_files(model[7:].split("@")[0]), [])

    def test_a_gated_repository_needs_the_token_and_the_token_goes_nowhere_else(self):
        rc, _, err = self.cli("hf-hub:test/gated")
        self.assertEqual(rc, 1)
        self.assert_one_line(err, "hf-hub:test/gated: config.json", "401", "HF_TOKEN")
        rc, out, err = self.cli("hf-hub:test/gated", extra_env={"HF_TOKEN": TOKEN})
        self.assertEqual((rc, out), (0, self.cli(TIMM)[1]), err)
        cdn = [auth for method, path, auth in self.hub.log if path.startswith("/cdn/")]
        self.assertTrue(cdn)
        self.assertFalse(any(cdn), "the token went to the CDN's host")
        for root, _, files in os.walk(self.home):
            for name in files:
                self.assertNotIn(TOKEN.encode(), read_bytes(os.path.join(root, name)))
        self.assertNotIn(TOKEN, out + err)

    def test_a_token_file_under_hf_home_is_read_as_huggingface_hub_reads_it(self):
        with open(os.path.join(self.home, "token"), "w") as f:
            f.write(TOKEN + "\n")
        rc, _, err = self.cli("hf-hub:test/gated")
        self.assertEqual(rc, 0, err)

    def test_a_full_disk_is_one_line_and_leaves_no_partial_file(self):
        rc, _, err = self.cli("hf-hub:test/timm-tiny", limit_file_kb=64)
        self.assertEqual(rc, 1)
        self.assert_one_line(err, "hf-hub:test/timm-tiny: model.safetensors: cannot write")
        self.assertNotIn("model.safetensors", [os.path.basename(f) for f in self.snapshot_files("test/timm-tiny")])
        blobs = os.listdir(os.path.join(self.repo_folder("test/timm-tiny"), "blobs"))
        self.assertFalse([b for b in blobs if b.endswith(".incomplete")])

    def test_a_repository_with_only_pickled_weights_is_refused_by_name(self):
        rc, _, err = self.cli("hf-hub:test/pickled")
        self.assertEqual(rc, 1)
        self.assert_one_line(err, "hf-hub:test/pickled: model.safetensors", "pytorch_model.bin", "only safetensors are read")

    def test_a_malformed_name_is_one_line(self):
        for model in ("hf-hub:", "hf-hub:no-org", "hf-hub:a/b@", "hf-hub:a/b/c", "hf-hub:a--b/c"):
            rc, _, err = self.cli(model)
            self.assertEqual(rc, 1, model)
            self.assert_one_line(err, "hf-hub:")
        self.assertEqual(self.hub.log, [])


@unittest.skipUnless(APP, "no app given")
class AppHubTest(HubFixture):
    def app(self, *args, **hf_env):
        """The app's exit status and stderr. The status is echoed from inside xvfb-run: xvfb-run's own can be
        5 when the app ends before the X server has settled (it fails to remove its folder)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
        env.update({"HF_HOME": self.home, "HF_ENDPOINT": self.hub.endpoint, **hf_env})
        command = [XVFB_RUN, "-a", "-s", "-screen 0 1600x1000x24", "bash", "-c", '"$0" "$@"; echo "exit=$?"', APP]
        done = subprocess.run(command + list(args), env=env, capture_output=True, text=True, timeout=300)
        status = re.search(r"^exit=(\d+)$", done.stdout, re.M)
        self.assertTrue(status, done.stdout + done.stderr)
        return int(status.group(1)), done.stderr

    def test_the_app_tours_a_model_named_on_the_hub(self):
        tour = os.path.join(self.home, "tour")
        rc, err = self.app("--model", "hf-hub:test/timm-tiny", "--image", IMAGE, "--tour", tour)
        self.assertEqual(rc, 0, err)
        self.assertIn("00-input.png", os.listdir(tour))
        self.assertTrue(any(f.endswith("-attention.png") for f in os.listdir(tour)), os.listdir(tour))
        self.assertTrue(self.snapshot_files("test/timm-tiny"))

    def test_a_lesson_on_a_model_named_on_the_hub_plays(self):
        lesson = os.path.join(self.home, "lesson.json")
        with open(lesson, "w") as f:
            f.write('{"title": "A model from the Hub", "model": "hf-hub:test/timm-tiny", "image": "%s", '
                    '"steps": [{"title": "Where CLS looks", "stage": "block0.attn", "narration": "The answer is {answer}."}]}'
                    % IMAGE)
        tour = os.path.join(self.home, "lesson-tour")
        rc, err = self.app("--lesson", lesson, "--tour", tour)
        self.assertEqual(rc, 0, err)
        self.assertTrue([f for f in os.listdir(tour) if f.endswith("-step.png")])

    def lesson_with_otherwise(self):
        """A two-step lesson on a Hub model naming a one-step digits lesson to play otherwise."""
        digits = os.path.join(self.home, "digits.json")
        with open(digits, "w") as f:
            f.write('{"title": "Digits instead", "model": "digits", "steps": [{"title": "A digit", "stage": "input"}]}')
        lesson = os.path.join(self.home, "hub-lesson.json")
        with open(lesson, "w") as f:
            f.write('{"title": "On the Hub", "model": "hf-hub:test/timm-tiny", "image": "%s", "otherwise": "digits.json", '
                    '"steps": [{"title": "In", "stage": "tokens"}, {"title": "CLS", "stage": "block0.attn"}]}' % IMAGE)
        return lesson

    def steps_toured(self, lesson, **hf_env):
        tour = tempfile.mkdtemp(dir=self.home)
        rc, err = self.app("--lesson", lesson, "--tour", tour, **hf_env)
        self.assertEqual(rc, 0, err)
        return len([f for f in os.listdir(tour) if f.endswith("-step.png")]), err

    def test_a_lesson_on_a_hub_model_plays_its_otherwise_lesson_when_the_model_cannot_be_had(self):
        lesson = self.lesson_with_otherwise()
        self.assertEqual(self.steps_toured(lesson, HF_HUB_OFFLINE="1")[0], 1)  # nothing cached, offline
        shots, err = self.steps_toured(lesson, HF_ENDPOINT=CLOSED_PORT_ENDPOINT)  # the Hub down
        self.assertEqual(shots, 1)
        self.assertIn("hf-hub:test/timm-tiny: the Hub cannot be reached", err)
        self.assertEqual(self.steps_toured(lesson)[0], 2)  # from the Hub, into the cache
        self.assertEqual(self.steps_toured(lesson, HF_HUB_OFFLINE="1")[0], 2)  # from the cache

    def test_a_tour_of_a_model_the_hub_does_not_have_exits_1_naming_it(self):
        rc, err = self.app("--model", "hf-hub:test/no-such-model", "--image", IMAGE, "--tour",
                           os.path.join(self.home, "tour"))
        self.assertEqual(rc, 1)
        self.assertIn("hf-hub:test/no-such-model: config.json", err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
