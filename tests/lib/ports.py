"""TCP ports of 127.0.0.1 for tests: a free one to hand a server, and waiting
for a server to listen there — a connect() retried until a deadline, never a
fixed sleep. Standard library only."""
import socket
import threading
import time

HOST = "127.0.0.1"
RETRY_S = 0.02  # between two connect() attempts


def free_port():
    """A port nobody listens on now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def held_port():
    """(socket, port): a port of HOST bound by the returned socket, not
    listening. While it is open no other process is given the port and a
    connection to it is refused; a server started with the socket (QEMU's
    `-chardev socket,fd=N`) listens on it with no race for the port."""
    s = socket.socket()
    s.bind((HOST, 0))
    return s, s.getsockname()[1]


def connect(port, timeout=10, process=None):
    """A socket connected to HOST:port, retried until the deadline passes
    (then the last OSError is raised) or process, when given, has exited
    (then ConnectionRefusedError)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection((HOST, port), timeout=1)
        except OSError:
            if time.monotonic() > deadline:
                raise
            if process is not None and process.poll() is not None:
                raise ConnectionRefusedError(f"{HOST}:{port}: the server exited "
                                             f"with {process.returncode}")
            time.sleep(RETRY_S)


def wait_listening(port, timeout=10, process=None):
    """True once something accepts a connection on HOST:port (which is closed
    at once); False when the deadline passes or process has exited first."""
    try:
        connect(port, timeout, process).close()
        return True
    except OSError:
        return False


def relay(client, server, pump):
    """Carries one connection between client and server until both
    directions end: both sockets unbuffered (TCP_NODELAY) and blocking,
    pump(client, server, "c2s") and pump(server, client, "s2c") each in its own
    thread; both sockets are closed when they return."""
    for s in (client, server):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.settimeout(None)
    threads = [threading.Thread(target=pump, args=(client, server, "c2s"), daemon=True),
               threading.Thread(target=pump, args=(server, client, "s2c"), daemon=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client.close()
    server.close()
