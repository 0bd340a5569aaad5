"""A real Jupyter server for tests: started on 127.0.0.1 only, with a token and its
own root, config and runtime folders; driven through its REST API and a kernel's
websocket as JupyterLab's and Notebook 7's front end drive it.

Nothing here reaches beyond this machine's loopback address, and every wait is
bounded in time.
"""
from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import websocket  # websocket-client, a requirement of jupyter_server


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterServer:
    """`python -m <app>` (jupyterlab or notebook) serving `root`, until stop()."""

    def __init__(self, app: str, root: Path, scratch: Path):
        self.root, self.port, self.token = root, _free_port(), secrets.token_hex(16)
        env = {k: v for k, v in os.environ.items() if not k.startswith("JPY_")}
        for name in ("config", "data", "runtime"):  # no user's settings, no leftovers
            (scratch / name).mkdir(parents=True, exist_ok=True)
        env.update(JUPYTER_CONFIG_DIR=str(scratch / "config"),
                   JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
                   JUPYTER_DATA_DIR=str(scratch / "data"), JUPYTER_PLATFORM_DIRS="1")
        self.log = open(scratch / "server.log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", app, "--no-browser", "--ip=127.0.0.1", f"--port={self.port}",
             "--port-retries=0", "--allow-root", f"--ServerApp.root_dir={root}",
             f"--IdentityProvider.token={self.token}"],
            cwd=scratch, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_until_up(timeout=90)

    def _wait_until_up(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the Jupyter server exited: {self.process.returncode}")
            try:
                self.request("GET", "api/status")
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.5)
        raise TimeoutError("the Jupyter server did not answer in time")

    def request(self, method: str, path: str, body: dict | None = None):
        url = f"http://127.0.0.1:{self.port}/{path}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method, headers={
            "Authorization": f"token {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def save(self, api_path: str, nb: dict) -> None:
        """Save a notebook as the front end does (PUT to the contents API)."""
        quoted = urllib.parse.quote(api_path)
        self.request("PUT", f"api/contents/{quoted}",
                     {"type": "notebook", "format": "json", "content": nb})

    def open_notebook(self, api_path: str) -> dict:
        """Start a session as JupyterLab 4 and Notebook 7 do (SessionContext): first
        at a unique path in the notebook's folder with the file's name, then moved to
        the notebook's path. The session's JSON."""
        folder, name = os.path.split(api_path)
        session = self.request("POST", "api/sessions", {
            "path": f"{folder}/{uuid.uuid4()}" if folder else str(uuid.uuid4()),
            "type": "notebook", "name": name, "kernel": {"name": "python3"}})
        return self.request("PATCH", f"api/sessions/{session['id']}", {"path": api_path})

    def kernel(self, kernel_id: str) -> Kernel:
        url = (f"ws://127.0.0.1:{self.port}/api/kernels/{kernel_id}/channels"
               f"?token={self.token}")
        return Kernel(websocket.create_connection(url, timeout=300))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        self.log.close()


class Kernel:
    """A kernel's channels through the server's websocket (JSON frames)."""

    def __init__(self, ws):
        self.ws, self.session = ws, uuid.uuid4().hex

    def run(self, code: str, timeout: float = 300) -> tuple[str, dict | None]:
        """(what the cell printed or showed, its error or None), as a notebook shows them."""
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "username": "test", "session": self.session,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        shown, error, idle, replied = [], None, False, False
        end = time.monotonic() + timeout
        while not (idle and replied):
            if time.monotonic() > end:
                raise TimeoutError(f"no answer to {code[:60]!r}")
            msg = json.loads(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["header"]["msg_type"], msg["content"]
            if kind == "stream":
                shown.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                shown.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                error = content
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
        return "".join(shown), error

    def close(self) -> None:
        self.ws.close()
