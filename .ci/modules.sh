# Shell helpers for the two modules' release checks; sourced by .ci/run
# and .ci/pin-root from the repository's top directory, after set -euo
# pipefail. See RELEASING.md.

root_module=github.com/ftpurl/ftpurl
fetch_module=github.com/ftpurl/ftpurl/fetch

# load_release_env reads .ci/release.env: ROOT_VERSION, the root module's
# version that fetch/go.mod requires; ROOT_COMMIT, the commit that version
# is (to be) tagged at; FETCH_VERSION, the version fetch/ is (to be)
# tagged with, as fetch/$FETCH_VERSION.
load_release_env() {
	ROOT_VERSION="" ROOT_COMMIT="" FETCH_VERSION=""
	# shellcheck source=release.env
	. .ci/release.env
	local v
	for v in ROOT_VERSION FETCH_VERSION; do
		if ! [[ ${!v} =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
			echo ".ci/release.env: $v=${!v} is not a version like v1.2.3" >&2
			return 1
		fi
	done
	if ! [[ $ROOT_COMMIT =~ ^[0-9a-f]{40}$ ]]; then
		echo ".ci/release.env: ROOT_COMMIT=$ROOT_COMMIT is not a full commit hash; run .ci/pin-root (RELEASING.md)" >&2
		return 1
	fi
}

# make_tmp sets modtmp to a new temporary directory that is removed on
# exit (the module cache in it is read-only, hence the chmod).
make_tmp() {
	modtmp="$(mktemp -d)"
	trap 'chmod -R u+w "$modtmp" 2>/dev/null; rm -rf "$modtmp"' EXIT
}

# build_modproxy builds .ci/modproxy into $modtmp/modproxy. It is in its
# own module (.ci/go.mod), which go.work does not use.
build_modproxy() {
	(cd .ci && GOWORK=off go build -o "$modtmp/modproxy" ./modproxy)
}

# modproxy runs the tool built by build_modproxy.
modproxy() {
	"$modtmp/modproxy" "$@"
}

# with_proxy runs a command outside the workspace, with the file module
# proxy in $modtmp/proxy first and the usual proxy behind it, a module
# cache of its own in $modtmp/gomodcache (a cache that already held a
# different zip under the same version would hide a fault), and no
# checksum database for github.com/ftpurl (the versions are not
# published yet; every other module is checked as usual). GOPRIVATE and
# GONOPROXY are cleared so that the file proxy is asked; nothing prompts.
with_proxy() {
	env GOWORK=off \
		GOMODCACHE="$modtmp/gomodcache" \
		GOPROXY="file://$modtmp/proxy,$(go env GOPROXY)" \
		GONOSUMDB=github.com/ftpurl GOPRIVATE= GONOPROXY= \
		GIT_TERMINAL_PROMPT=0 \
		"$@"
}
