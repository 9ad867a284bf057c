#!/usr/bin/env python3
"""A command agent that goes wrong on purpose, for the conformance check's tests.

    broken.py crash   fails at once, before any call (a traceback on stderr)
    broken.py hang    calls its model with the goal, prints its key, then does nothing and ignores SIGTERM
"""
import json
import os
import signal
import sys
import time
import urllib.request

how = sys.argv[1] if len(sys.argv) > 1 else "crash"
env = os.environ
print(f"broken agent ({how}) working on {env['AGENTEST_TASK_ID']}")

if how == "crash":
    raise RuntimeError("cannot reach the model: no route to host")

if how == "hang":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    key = env.get(env["AGENTEST_API_KEY_ENV"], "")
    print(f"using key {key}")
    body = {"model": env["AGENTEST_MODEL"], "messages": [{"role": "user", "content": env["AGENTEST_GOAL"]}]}
    request = urllib.request.Request(
        env["AGENTEST_MODEL_BASE_URL"] + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    try:
        urllib.request.urlopen(request, timeout=120).read()
    except Exception as error:  # the check's model never answers the cancelled task
        print(f"model call failed: {error}")
    while True:
        time.sleep(1)
