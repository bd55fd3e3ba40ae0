#!/usr/bin/env python3
"""A stand-in for the Hugging Face Hub on 127.0.0.1, speaking the resolve
protocol the way huggingface.co does, for the tests (nothing reaches the
internet):

  HEAD/GET /{org}/{name}/resolve/{revision}/{file}
    a small file: 200 with ETag (git's blob sha1), Content-Length, X-Repo-Commit;
    a large file (.safetensors, .bin): 302 to /cdn/{sha256} on "localhost" (another
    host name than the endpoint's, as a CDN is), with X-Linked-Etag (its sha256),
    X-Linked-Size and X-Repo-Commit;
    404 with X-Error-Code for an unknown repository, revision or file;
    401 for a gated repository without its token.
  GET /cdn/{sha256}   the bytes, with Range support (206) and the sha256 as ETag.
Every answer lets a page of any origin read it (CORS), as huggingface.co's do.

Faults a test asks for (Hub.faults, by file name): "cut" sends half the body and
closes; "corrupt" sends other bytes than the stated hash; "slow" sends 4 kB
every 0.1 s (a download to watch); "huge" states a length of 1.3 GB, sends the
file and closes (weights too large for a browser tab). Every request is
logged (Hub.log: method, path, whether it carried an Authorization header).
Run alone: stand_in_hub.py [--slow | --huge] ORG/NAME=FOLDER ... prints its endpoint and serves
(the page's tests, tests/web/page_tests.mjs, start it so).
"""
import hashlib
import http.server
import os
import sys
import threading
import time

LARGE_SUFFIXES = (".safetensors", ".bin")
HUGE_BYTES = 1300000000  # the length the "huge" fault states


def git_blob_sha1(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class QuietServer(http.server.ThreadingHTTPServer):
    """A client that stops reading (a cancelled or failed download) is no error of the server's."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class Hub:
    def __init__(self, repos, gated=None):
        """repos: {"org/name": folder}; gated: {"org/name": token}."""
        self.repos = {repo: self._files(folder) for repo, folder in repos.items()}
        self.commits = {repo: hashlib.sha1(repo.encode()).hexdigest() for repo in repos}
        self.gated = gated or {}
        self.faults = {}  # file name -> "cut" | "corrupt"
        self.log = []
        self.blobs = {}
        for files in self.repos.values():
            for data in files.values():
                self.blobs[hashlib.sha256(data).hexdigest()] = data
        self.server = QuietServer(("127.0.0.1", 0), self._handler())
        self.port = self.server.server_address[1]
        self.endpoint = "http://127.0.0.1:%d" % self.port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @staticmethod
    def _files(folder):
        files = {}
        for name in sorted(os.listdir(folder)):
            if os.path.isfile(os.path.join(folder, name)):
                with open(os.path.join(folder, name), "rb") as f:
                    files[name] = f.read()
        return files

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        hub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def end_headers(self):
                # As huggingface.co answers a page's fetch: any origin may read the file and these headers.
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Access-Control-Expose-Headers",
                                 "ETag, Content-Length, Content-Range, X-Repo-Commit, X-Linked-Etag, X-Linked-Size")
                super().end_headers()

            def do_HEAD(self):
                self.answer(body=False)

            def do_GET(self):
                self.answer(body=True)

            def answer(self, body):
                hub.log.append((self.command, self.path, "Authorization" in self.headers))
                parts = self.path.split("?")[0].strip("/").split("/")
                if parts[0] == "cdn" and len(parts) == 2:
                    return self.cdn(parts[1], body)
                if len(parts) < 5 or parts[2] != "resolve":
                    return self.error(404, "EntryNotFound")
                self.resolve("/".join(parts[:2]), parts[3], "/".join(parts[4:]), body)

            def resolve(self, repo, revision, name, body):
                if repo not in hub.repos:
                    return self.error(404, "RepoNotFound")
                if repo in hub.gated and self.headers.get("Authorization") != "Bearer " + hub.gated[repo]:
                    return self.error(401, "GatedRepo")
                commit = hub.commits[repo]
                if revision not in ("main", commit):
                    return self.error(404, "RevisionNotFound")
                data = hub.repos[repo].get(name)
                if data is None:
                    return self.error(404, "EntryNotFound")
                if name.endswith(LARGE_SUFFIXES):
                    sha = hashlib.sha256(data).hexdigest()
                    self.send_response(302)
                    self.send_header("Location", "http://localhost:%d/cdn/%s" % (hub.port, sha))
                    self.send_header("X-Linked-Etag", '"%s"' % sha)
                    self.send_header("X-Linked-Size", str(len(data)))
                    self.send_header("X-Repo-Commit", commit)
                    self.send_header("Content-Length", "0")
                    return self.end_headers()
                self.send_bytes(data, body, {"ETag": '"%s"' % git_blob_sha1(data), "X-Repo-Commit": commit}, name)

            def cdn(self, sha, body):
                data = hub.blobs.get(sha)
                if data is None:
                    return self.error(404, "EntryNotFound")
                start = 0
                ranged = self.headers.get("Range", "")
                if ranged.startswith("bytes=") and ranged.endswith("-"):
                    start = int(ranged[6:-1])
                names = [n for files in hub.repos.values() for n, d in files.items() if d is data]
                self.send_bytes(data, body, {"ETag": '"%s"' % sha}, names[0] if names else "", start)

            def send_bytes(self, data, body, headers, name, start=0):
                fault = hub.faults.get(name) if body else None
                if fault == "corrupt":
                    data = data[:-1] + bytes([data[-1] ^ 0xFF])
                piece = data[start:]
                self.send_response(206 if start else 200)
                if start:
                    self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(HUGE_BYTES if fault == "huge" else len(piece)))
                self.end_headers()
                if not body:
                    return
                if fault in ("cut", "huge"):
                    self.wfile.write(piece[: len(piece) // 2] if fault == "cut" else piece)
                    self.wfile.flush()
                    self.close_connection = True
                    return
                step = 4096 if fault == "slow" else len(piece) or 1
                for at in range(0, len(piece), step):
                    self.wfile.write(piece[at:at + step])
                    if fault == "slow":
                        self.wfile.flush()
                        time.sleep(0.1)

            def error(self, status, code):
                self.send_response(status)
                self.send_header("X-Error-Code", code)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler


if __name__ == "__main__":
    hub = Hub(dict(arg.split("=", 1) for arg in sys.argv[1:] if "=" in arg)).start()
    for fault in ("slow", "huge"):
        if "--" + fault in sys.argv:
            hub.faults["model.safetensors"] = fault
    print(hub.endpoint, flush=True)
    hub.thread.join()
