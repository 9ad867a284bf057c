"""A command agent that goes wrong in the way its AGENTEST_OPTIONS say (a test double for the harness's tests)."""
import json, os, signal, subprocess, sys, time, urllib.request

how = json.loads(os.environ['AGENTEST_OPTIONS']).get('how') or os.environ.get('MISBEHAVE', '')
if not how:
    how = {'omnizon-1': 'crash', 'omnizon-2': 'hang', 'omnizon-3': 'leak-key'}.get(os.environ['AGENTEST_TASK_ID'], 'no-finish')

def call(path, body=None):
    request = urllib.request.Request(os.environ['AGENTEST_API_URL'] + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={'Authorization': 'Bearer ' + os.environ['AGENTEST_TOKEN'], 'Content-Type': 'application/json'})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())

call('/actions', {'type': 'wait', 'ms': 10})
print('working on', os.environ['AGENTEST_TASK_ID'], 'pid', os.getpid(), 'token', os.environ['AGENTEST_TOKEN'])
if how == 'crash':
    os.kill(os.getpid(), signal.SIGSEGV)
elif how == 'hang':
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # deaf to the polite stop
    while True:
        time.sleep(1)
elif how == 'leak-key':
    print('my key is', os.environ[os.environ['AGENTEST_API_KEY_ENV']], file=sys.stderr)
    sys.exit(3)
elif how == 'no-finish':
    sys.exit(0)
elif how == 'leave-child':
    child = subprocess.Popen(['sleep', '300'])
    print('child', child.pid, flush=True)
    call('/finish', {'answer': 'done'})
    time.sleep(300)
elif how == 'usage':
    call('/finish', {'answer': 'done', 'usage': {'input_tokens': 1200, 'output_tokens': 34}, 'model': 'my-model-2026'})
elif how == 'env':
    call('/finish', {'answer': json.dumps(sorted(os.environ))})
