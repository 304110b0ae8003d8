"""Debian's headless Chromium driven over the DevTools protocol, for the
report tests: open a file:// page with the network off, collect console
messages, script exceptions and every request the page makes, evaluate
JavaScript, and take a screenshot. Needs python3-websocket (Debian).

Chromium runs with the flags these machines need (no sandbox as root, no
GPU, no background networking) and a fresh profile, and is killed when the
Browser is closed."""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

import websocket

CHROMIUM = os.environ.get('BENCHRACK_CHROMIUM', '/usr/bin/chromium')
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--disable-extensions', '--disable-dev-shm-usage', '--hide-scrollbars',
         '--remote-debugging-port=0', '--remote-allow-origins=*']


class Browser:
    def __init__(self, width=1280, height=900, timeout=30.0):
        self.profile = tempfile.mkdtemp(prefix='benchrack-chromium-')
        self.proc = subprocess.Popen(
            [CHROMIUM] + FLAGS + ['--user-data-dir=' + self.profile,
                                  '--window-size=%d,%d' % (width, height), 'about:blank'],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.events = []
        self.next_id = 0
        port_file = os.path.join(self.profile, 'DevToolsActivePort')
        deadline = time.monotonic() + timeout
        while True:
            if os.path.exists(port_file):
                with open(port_file) as f:
                    lines = f.read().split('\n')
                if lines and lines[0].strip().isdigit():
                    break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError('chromium did not start (%s)' % CHROMIUM)
            time.sleep(0.05)
        port = int(lines[0])
        with urllib.request.urlopen('http://127.0.0.1:%d/json/list' % port, timeout=10) as r:
            targets = json.load(r)
        page = [t for t in targets if t.get('type') == 'page'][0]
        self.ws = websocket.create_connection(page['webSocketDebuggerUrl'], timeout=timeout,
                                              suppress_origin=True)
        for domain in ('Page', 'Runtime', 'Log', 'Network'):
            self.call(domain + '.enable')
        self.call('Emulation.setDeviceMetricsOverride', width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def call(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({'id': mid, 'method': method, 'params': params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get('id') == mid:
                if 'error' in msg:
                    raise RuntimeError('%s: %s' % (method, msg['error']))
                return msg.get('result', {})
            if 'method' in msg:
                self.events.append(msg)

    def network_off(self):
        self.call('Network.emulateNetworkConditions', offline=True, latency=0,
                  downloadThroughput=-1, uploadThroughput=-1)

    def open(self, path, wait_for='document.documentElement.dataset.rendered', timeout=30.0):
        """Navigates to path as a file:// URL and waits until wait_for is truthy."""
        url = 'file://' + os.path.abspath(path)
        self.call('Page.navigate', url=url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.eval('(() => { try { return !!(%s); } catch (e) { return false; } })()' % wait_for):
                return url
            time.sleep(0.05)
        raise RuntimeError('%s: %s never became true' % (url, wait_for))

    def eval(self, expr, await_promise=False):
        r = self.call('Runtime.evaluate', expression=expr, returnByValue=True,
                      awaitPromise=await_promise)
        if 'exceptionDetails' in r:
            raise RuntimeError('evaluating %s: %s' % (expr, r['exceptionDetails']))
        return r['result'].get('value')

    def settle(self, frames=3):
        """Waits for the page to paint frames times (charts redraw after a resize)."""
        self.eval('new Promise(r => { let n = %d; const f = () => --n ? requestAnimationFrame(f) : r(0); '
                  'requestAnimationFrame(f); })' % frames, await_promise=True)

    def problems(self):
        """Script exceptions, console errors and warnings, and log errors seen so far."""
        self.call('Runtime.evaluate', expression='0')  # drain pending events
        out = []
        for e in self.events:
            m, p = e['method'], e.get('params', {})
            if m == 'Runtime.exceptionThrown':
                d = p['exceptionDetails']
                out.append('exception: %s %s' % (d.get('text'), d.get('exception', {}).get('description', '')))
            elif m == 'Runtime.consoleAPICalled' and p['type'] in ('error', 'warning', 'assert'):
                out.append('console.%s: %s' % (p['type'], ' '.join(str(a.get('value', a.get('description'))) for a in p['args'])))
            elif m == 'Log.entryAdded' and p['entry']['level'] in ('error', 'warning'):
                out.append('log %s: %s' % (p['entry']['level'], p['entry']['text']))
        return out

    def requests(self):
        """Every URL the page asked for (the page itself included)."""
        return [e['params']['request']['url'] for e in self.events
                if e['method'] == 'Network.requestWillBeSent']

    def screenshot(self, path, full_page=True):
        params = {'format': 'png'}
        if full_page:
            m = self.call('Page.getLayoutMetrics')
            size = m.get('cssContentSize') or m['contentSize']
            params['clip'] = {'x': 0, 'y': 0, 'width': size['width'],
                              'height': min(size['height'], 16000), 'scale': 1}
            params['captureBeyondViewport'] = True
        data = self.call('Page.captureScreenshot', **params)['data']
        with open(path, 'wb') as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            if getattr(self, 'ws', None) is not None:
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
