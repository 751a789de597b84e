"""pyftpdlib for the fetch tests: anonymous and one password user.

Usage: pyftpd.py PORT ROOT PASV_LO PASV_HI USER PASSWORD [CERTFILE KEYFILE]

pyftpdlib's own command line serves anonymous or one user, not both.

With CERTFILE and KEYFILE it serves explicit FTPS (RFC 4217) with
TLS_FTPHandler, which needs pyOpenSSL (Debian's python3-openssl):
  - AUTH TLS on the plain port; pyftpdlib 1.5.7 has no implicit TLS
    (no listener that starts TLS on the first byte);
  - tls_control_required: USER and PASS before AUTH TLS are refused
    (550 SSL/TLS required on the control channel);
  - tls_data_required: a transfer before PROT P is refused (550);
  - it does not require the data connection to resume the control
    connection's TLS session (vsftpd and ProFTPD do).
pyftpdlib 1.5.7 resets a data connection whose TLS handshake starts
before the transfer command (as curl's does): giampaolo/pyftpdlib#604,
fixed in 1.5.8. This script keeps Debian's behaviour.
"""
import logging
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main():
    port, root, lo, hi, user, password = sys.argv[1:7]
    authorizer = DummyAuthorizer()
    # The password user may write (the upload tests write only in
    # directories they make); anonymous reads only.
    # T: MFMT, which Client.SetModTime sends (refused without it).
    authorizer.add_user(user, password, root, perm="elradfmwT")
    authorizer.add_anonymous(root, perm="elr")
    handler = FTPHandler
    if len(sys.argv) > 7:
        from pyftpdlib.handlers import TLS_FTPHandler

        handler = TLS_FTPHandler
        handler.certfile, handler.keyfile = sys.argv[7:9]
        handler.tls_control_required = True
        handler.tls_data_required = True
    handler.authorizer = authorizer
    handler.passive_ports = range(int(lo), int(hi) + 1)
    handler.banner = "pyftpdlib test server"
    logging.basicConfig(level=logging.WARNING)
    server = FTPServer(("127.0.0.1", int(port)), handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
