#!/usr/bin/env bash
# Installs the four FTP servers that the fetch tests run besides
# ftpserverlib, on Debian 12, as root, reading no standard input:
#
#   vsftpd, proftpd-core, proftpd-mod-crypto (ProFTPD's mod_tls),
#   pure-ftpd: `apt-get download`ed and unpacked with `dpkg-deb -x` under
#   $FTPURL_SERVERS/root (the servers each declare Conflicts: ftp-server,
#   so apt would keep only one; unpacking runs no maintainer script and
#   starts no daemon), plus the libraries they link;
#   python3-pyftpdlib and python3-openssl (pyftpdlib's TLS_FTPHandler):
#   installed normally (run with /usr/bin/python3);
#   squid and openssl, for the proxy tests (squid_test.go): installed
#   normally.
#
# It also creates what logging in needs:
#   - the system user "ftp", whose home is $FTPURL_SERVERS/tree (the
#     anonymous user; Pure-FTPd takes its anonymous root from that home);
#   - the user "ftpurl" with the password "ftpurl-secret", same home, a
#     shell listed in /etc/shells (vsftpd's PAM checks it);
#   - a PAM service file /etc/pam.d/ftpurl-vsftpd for vsftpd.
#
# $FTPURL_SERVERS/tree is only a mount point: this script serves
# nothing from it, and the tests never write to it or read what it
# holds (older versions of the tests filled it; a leftover is harmless,
# and can be removed). Each test run builds its own tree, certificates,
# configurations and logs in a temporary directory, names that
# directory in the servers' configurations, and starts the servers in a
# private mount namespace where the tree is bind-mounted over this home,
# so that what the servers take from the home (Pure-FTPd's anonymous
# root, the "~" of ftp and ftpurl) is the test's tree too. Nothing of
# that mount is seen outside the servers' processes.
#
# FTPURL_SERVERS defaults to /opt/ftpurl-servers, where the tests look
# for it too. Running the script again is harmless.
set -euo pipefail
exec </dev/null

dir="${FTPURL_SERVERS:-/opt/ftpurl-servers}"
export DEBIAN_FRONTEND=noninteractive

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo=sudo
fi

$sudo mkdir -p "$dir/root" "$dir/debs" "$dir/tree"
$sudo chmod 0755 "$dir" "$dir/tree"

$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
	libwrap0 libhiredis0.14 libmemcached11 libmemcachedutil2 \
	libpcre2-posix3 libhashkit2 libsodium23 libcap2 libpam0g \
	libssl3 zlib1g python3-pyftpdlib python3-openssl passwd >/dev/null
# Squid, the real HTTP proxy of squid_test.go (its FTP gateway and its
# CONNECT tunnel), and openssl, which writes its password file. The
# tests start a Squid of their own (their configuration, a loopback
# port); the package's service is not used. Installed normally: its
# maintainer script may start that service where the machine runs an
# init system, on port 3128, which the tests never use.
$sudo apt-get install -y -qq --no-install-recommends squid openssl >/dev/null

# apt's download runs as _apt, which must be able to write there.
if getent passwd _apt >/dev/null; then
	$sudo chown _apt "$dir/debs"
fi
(
	cd "$dir/debs"
	rm -f ./*.deb
	$sudo apt-get download -qq vsftpd proftpd-core proftpd-mod-crypto pure-ftpd
	for deb in ./*.deb; do
		$sudo dpkg-deb -x "$deb" "$dir/root"
	done
)

if ! getent passwd ftp >/dev/null; then
	$sudo useradd --system --home-dir "$dir/tree" --no-create-home \
		--shell /usr/sbin/nologin ftp
elif [ "$(getent passwd ftp | cut -d: -f6)" != "$dir/tree" ]; then
	$sudo usermod --home "$dir/tree" ftp
fi
if ! getent passwd ftpurl >/dev/null; then
	$sudo useradd --home-dir "$dir/tree" --no-create-home \
		--shell /bin/bash ftpurl
elif [ "$(getent passwd ftpurl | cut -d: -f6,7)" != "$dir/tree:/bin/bash" ]; then
	$sudo usermod --home "$dir/tree" --shell /bin/bash ftpurl
fi
echo 'ftpurl:ftpurl-secret' | $sudo chpasswd
grep -qx /bin/bash /etc/shells || echo /bin/bash | $sudo tee -a /etc/shells >/dev/null

$sudo tee /etc/pam.d/ftpurl-vsftpd >/dev/null <<'PAM'
# vsftpd for the ftpurl fetch tests (fetch/testdata/install-servers.sh)
auth	required	pam_shells.so
@include common-auth
@include common-account
@include common-session
PAM

for bin in usr/sbin/vsftpd usr/sbin/proftpd usr/sbin/pure-ftpd usr/lib/proftpd/mod_tls.so; do
	if ! "$dir/root/$bin" --help >/dev/null 2>&1 && ! ldd "$dir/root/$bin" >/dev/null; then
		echo "$dir/root/$bin does not run" >&2
		exit 1
	fi
	if ldd "$dir/root/$bin" | grep -q 'not found'; then
		echo "$dir/root/$bin misses libraries:" >&2
		ldd "$dir/root/$bin" | grep 'not found' >&2
		exit 1
	fi
done
/usr/bin/python3 -c 'import pyftpdlib, OpenSSL; from pyftpdlib.handlers import TLS_FTPHandler; print("pyftpdlib", pyftpdlib.__ver__, "pyOpenSSL", OpenSSL.__version__)'
/usr/sbin/squid -v | sed -n 1p
echo "FTP servers installed in $dir"
