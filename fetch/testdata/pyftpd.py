"""pyftpdlib for the fetch tests: anonymous and one password user.

Usage: pyftpd.py PORT ROOT PASV_LO PASV_HI USER PASSWORD

pyftpdlib's own command line serves anonymous or one user, not both.
"""
import logging
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main():
    port, root, lo, hi, user, password = sys.argv[1:7]
    authorizer = DummyAuthorizer()
    authorizer.add_user(user, password, root, perm="elr")
    authorizer.add_anonymous(root, perm="elr")
    handler = FTPHandler
    handler.authorizer = authorizer
    handler.passive_ports = range(int(lo), int(hi) + 1)
    handler.banner = "pyftpdlib test server"
    logging.basicConfig(level=logging.WARNING)
    server = FTPServer(("127.0.0.1", int(port)), handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
