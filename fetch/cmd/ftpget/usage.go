package main

// usage is -h's text: every flag, grouped as curl's manual groups
// them (TestHelpListsEveryFlag checks that none is missing).
const usage = `Usage: ftpget [flags] URL...

Fetches what ftp URLs name, as curl does: a file to standard output (or
-o, -O), a listing as its lines, or with -I what the server says of the
name; uploads with -T. A letter curl has means what it means in curl.
Flags may come before or after the URLs; each -o or -O goes with one
URL, in order, as curl pairs them. Short flags may share a dash (-sS).

Output:
  -o, --output FILE       write the next URL's file to FILE ("-": stdout)
  -O, --remote-name       write the next URL's file to its name, here
      --remote-name-all   -O for every URL without -o or -O
      --create-dirs       make the missing local directories of -o FILE
  -C, --continue-at N|-   start at byte N, appending; "-": at the size of
                          the -o/-O file (REST, RFC 3659 §5)
  -R, --remote-time       give the file the server's time (MDTM)
  -r, --range A-B|A-|-N   only bytes A to B, from A, or the last N
  -I, --head              print the type, size and time of the name
  -l, --list-only         a directory URL's names only (NLST)

Upload:
  -T, --upload-file FILE URL   upload FILE ("-": stdin) to URL (a URL
                          ending in / takes FILE's name)
      --ftp-create-dirs   with -T: make the URL's missing directories

Large files and proof:
      --segments N        fetch a file (-o, -O; a mirror's files of 8 MiB
                          and more) over up to N sessions, as lftp's
                          pget -n
      --checksum          prove each transfer, up or down, by the
                          server's hash (HASH, XSHA256...) where it
                          offers one; a mismatch fails the file

Commands:
  -Q, --quote CMD         send CMD after the login, before the transfer;
                          -CMD after it; *CMD: a refusal is no failure

Login:
  -u, --user USER[:PASS]  log in as USER (asked for PASS on the terminal
                          when it is not given)
  -n, --netrc             the login from ~/.netrc
      --netrc-optional    the same, where the URL and -u give none
      --netrc-file FILE   the login from FILE instead of ~/.netrc
      --password-file F   the password for a URL with a user and none
                          ("-": standard input)

Connection:
      --connect-timeout S the connection and login within S seconds
  -m, --max-time S        the whole transfer within S seconds (0.5 too)
      --timeout D         the same, as a duration (30s, 2m)
      --retry N           try a transient failure again N times (a
                          timeout, a 4xx reply; never a 550)
      --retry-delay S     wait S seconds between tries (default: 1, 2,
                          4... up to 10 minutes)
      --retry-max-time S  no new try after S seconds
      --limit-rate RATE   at most RATE bytes a second (200K, 1M, 1G)
      --max-filesize N    refuse a file over N bytes (500K, 2M; exit 63)
  -4, --ipv4              the server's IPv4 addresses only
  -6, --ipv6              the server's IPv6 addresses only
  -Z, --parallel          the URLs at once, up to --parallel-max
      --parallel-max N    at most N at once (default 50; a mirror's 4)
      --tls, --ssl-reqd   secure an ftp:// URL with AUTH TLS (RFC 4217)
      --cacert FILE       verify TLS certificates against the PEM FILE
  -k, --insecure          do not verify the server's TLS certificate
      --proxy-cacert FILE --cacert for an https:// proxy (whose
                          certificate --cacert and -k do not touch)
      --proxy-insecure    -k for an https:// proxy
  -x, --proxy URL         through a proxy: socks5://HOST[:PORT] (name
                          resolved here), socks5h:// (by the proxy), or
                          http:// and https:// (the proxy's FTP gateway;
                          with -p a CONNECT tunnel); else ftp_proxy or
                          ALL_PROXY; "": none
      --noproxy LIST      hosts reached without the proxy (as NO_PROXY)
      --method, --ftp-method M   multicwd (default), singlecwd, nocwd
      --absolute          read the path from the root, not the login
                          directory
  -P, --ftp-port ADDR     active mode: the server connects to ADDR
                          (HOST[:PORT[-PORT]], or - for this end's address)
  -p, --proxytunnel       tunnel every connection through the HTTP proxy
      --ftp-pasv          passive mode (the default; undoes --ftp-port)
      --disable-epsv      passive mode by PASV alone

Mirror:
      --mirror DIR URL    copy the tree the directory URL names into DIR:
                          only the files whose size or server time (MLSD,
                          MDTM) differs from the local copy's
      --recursive URL     the same, into the URL's last segment, here
  -T DIR --mirror URL     upload the tree DIR into the directory URL: only
                          what changed, each file under a temporary name
                          then renamed, its time set on the server
      --newer             only the changed files (the default)
      --mirror-all        every file, changed or not
      --delete            remove what the source no longer has (never
                          after a listing that failed)
      --max-delete N      with --delete: delete nothing where over N would
      --dry-run           print each action, change nothing
  -C -                    resume the partial files (.ftpget-part)

What is shown:
  -s, --silent            no progress bar, no error message
  -S, --show-error        with -s: the error messages still
  -v, --verbose           the dialog with the server on standard error
                          (> sent, < received; the password as xxxxx)
  -#, --progress-bar      the progress bar (ftpget's only meter)
  -w, --write-out FORMAT  after each URL, FORMAT on standard output:
                          %{response_code} (the transfer's last reply),
                          %{size_download}, %{size_upload}, %{exitcode},
                          %{url_effective}, %{filename_effective},
                          %{time_total}, %{errormsg}; \n, %%
  -V, --version           print the version and the protocols
  -h, --help              print this help

Taken and ignored, as curl ignores them for an ftp URL (HTTP's), or
because ftpget does what they ask anyway:
  -f, --fail, --fail-with-body, -L, --location, --compressed,
  -A, --user-agent X, -H, --header X, -e, --referer X, -b, --cookie X,
  -c, --cookie-jar X, -j, --junk-session-cookies, -g, --globoff,
  -N, --no-buffer, --tcp-nodelay, --ftp-skip-pasv-ip
      --no-progress-meter no progress bar

Exit statuses, as curl's (the last URL's; a mirror's first failure's): 0
done, 1 other failure, 2 usage, 3 bad URL, 5 unusable proxy, 6 unknown
host, 7 no connection, 9 directory refused, 18 partial file, 21 -Q
refused, 23 write error, 25 upload failed, 26 read error, 28 timeout, 36
cannot resume, 56 transfer reset, 60 certificate not verified, 63 file
over --max-filesize, 67 login refused, 77 bad --cacert, 78 not found,
97 proxy refused.
`
