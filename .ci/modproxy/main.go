// Command modproxy is the release tooling behind .ci/run and .ci/pin-root
// (see RELEASING.md). It lives in its own module, .ci/go.mod, so that
// golang.org/x/mod is in neither published module's requirements, and a
// nested go.mod also keeps .ci/ out of the root module's zip. Run it with
// GOWORK=off: the repository's go.work does not use this module.
//
// Usage:
//
//	modproxy zip -repo DIR -proxy DIR MODULE@VERSION=REVISION[:SUBDIR] ...
//	modproxy check -repo DIR -root-version VERSION
//	modproxy pin -repo DIR -root-version VERSION
//
// zip writes each module, as the Git commit REVISION holds it in SUBDIR,
// into a file module proxy (PROXY/MODULE/@v/{list,VERSION.info,.mod,.zip})
// and prints "MODULE VERSION h1:..." for it. The zip is made from `git
// archive` as the go command makes it from a Git tag (golang.org/x/mod/zip,
// which leaves out nested modules, vendor/ and symbolic links, and adds
// the repository's LICENSE to a module in a subdirectory without one), so
// the hash is the one the public proxy and checksum database will serve
// once REVISION is tagged. It depends only on file names and contents.
//
// check verifies the workspace layout: no go.mod in the repository has a
// replace directive; go.work uses . and ./fetch and replaces exactly the
// root module at VERSION with ./; fetch/go.mod requires the root module at
// VERSION.
//
// pin makes fetch/go.mod require the root module at VERSION and go.work
// replace that version with ./ (dropping any other replacement of it).
// It does not touch fetch/go.sum: .ci/pin-root runs go mod tidy for that.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

// fetchDir is the nested module's directory, relative to the repository.
const fetchDir = "fetch"

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet("modproxy "+cmd, flag.ExitOnError)
	repo := fs.String("repo", ".", "the repository's top directory")
	var err error
	switch cmd {
	case "zip":
		proxy := fs.String("proxy", "", "the file proxy's directory (created if missing)")
		fs.Parse(args)
		if *proxy == "" || fs.NArg() == 0 {
			usage()
		}
		err = zipAll(*repo, *proxy, fs.Args())
	case "check", "pin":
		version := fs.String("root-version", "", "the root module's version that fetch requires")
		fs.Parse(args)
		if *version == "" || fs.NArg() != 0 {
			usage()
		}
		if cmd == "check" {
			err = check(*repo, *version)
		} else {
			err = pin(*repo, *version)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "modproxy %s: %v\n", cmd, err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage:
	modproxy zip -repo DIR -proxy DIR MODULE@VERSION=REVISION[:SUBDIR] ...
	modproxy check -repo DIR -root-version VERSION
	modproxy pin -repo DIR -root-version VERSION
`)
	os.Exit(2)
}

func zipAll(repo, proxy string, specs []string) error {
	for _, spec := range specs {
		modVer, revDir, ok := strings.Cut(spec, "=")
		mod, ver, ok2 := strings.Cut(modVer, "@")
		if !ok || !ok2 {
			return fmt.Errorf("%q: want MODULE@VERSION=REVISION[:SUBDIR]", spec)
		}
		rev, subdir, _ := strings.Cut(revDir, ":")
		sum, err := writeModule(repo, proxy, module.Version{Path: mod, Version: ver}, rev, subdir)
		if err != nil {
			return fmt.Errorf("%s: %w", spec, err)
		}
		fmt.Printf("%s %s %s\n", mod, ver, sum)
	}
	return nil
}

// writeModule adds m, made from rev:subdir, to the file proxy and returns
// the zip's hash.
func writeModule(repo, proxy string, m module.Version, rev, subdir string) (string, error) {
	if semver.Canonical(m.Version) != m.Version {
		return "", fmt.Errorf("version %q is not canonical", m.Version)
	}
	if err := module.Check(m.Path, m.Version); err != nil {
		return "", err
	}
	subdir = strings.Trim(path.Clean("/"+subdir), "/")
	gomod, err := git(repo, "cat-file", "blob", rev+":"+path.Join(subdir, "go.mod"))
	if err != nil {
		return "", err
	}
	if got := modfile.ModulePath(gomod); got != m.Path {
		return "", fmt.Errorf("%s:%s/go.mod says module %q", rev, subdir, got)
	}
	out, err := git(repo, "show", "-s", "--format=%ct", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return "", fmt.Errorf("commit time of %s: %w", rev, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, time.Unix(secs, 0).UTC()})
	if err != nil {
		return "", err
	}
	files, err := filesInGit(repo, rev, subdir)
	if err != nil {
		return "", err
	}
	var zbuf bytes.Buffer
	if err := modzip.Create(&zbuf, m, files); err != nil {
		return "", err
	}

	escPath, err := module.EscapePath(m.Path)
	if err != nil {
		return "", err
	}
	escVer, err := module.EscapeVersion(m.Version)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(proxy, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	base := filepath.Join(dir, escVer)
	zipFile := base + ".zip"
	for name, data := range map[string][]byte{base + ".info": info, base + ".mod": gomod, zipFile: zbuf.Bytes()} {
		if err := os.WriteFile(name, data, 0o666); err != nil {
			return "", err
		}
	}
	listFile := filepath.Join(dir, "list")
	list, err := os.ReadFile(listFile)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	versions := strings.Fields(string(list))
	if !slices.Contains(versions, m.Version) {
		versions = append(versions, m.Version)
	}
	semver.Sort(versions)
	if err := os.WriteFile(listFile, []byte(strings.Join(versions, "\n")+"\n"), 0o666); err != nil {
		return "", err
	}
	return dirhash.HashZip(zipFile, dirhash.Hash1)
}

// filesInGit lists the files of rev under subdir as `git archive` gives
// them, the way the go command reads a module from a Git repository
// (cmd/go/internal/modfetch/codehost and coderepo; the same steps as
// golang.org/x/mod/zip.CreateFromVCS, which refuses a Git worktree
// because its .git is a file).
func filesInGit(repo, rev, subdir string) ([]modzip.File, error) {
	args := []string{"-c", "core.autocrlf=input", "-c", "core.eol=lf", "archive", "--format=zip", rev}
	if subdir != "" {
		args = append(args, subdir)
	}
	data, err := git(repo, args...)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var files []modzip.File
	haveLicense := false
	for _, zf := range zr.File {
		if strings.HasSuffix(zf.Name, "/") {
			continue
		}
		name := zf.Name
		if subdir != "" {
			var ok bool
			if name, ok = strings.CutPrefix(zf.Name, subdir+"/"); !ok {
				continue
			}
		}
		files = append(files, zipEntry{name, zf})
		if name == "LICENSE" {
			haveLicense = true
		}
	}
	if !haveLicense && subdir != "" {
		// As the go command does for a module in a subdirectory.
		if license, err := git(repo, "cat-file", "blob", rev+":LICENSE"); err == nil {
			files = append(files, dataEntry{"LICENSE", license})
		}
	}
	return files, nil
}

type zipEntry struct {
	name string
	f    *zip.File
}

func (e zipEntry) Path() string                 { return e.name }
func (e zipEntry) Lstat() (os.FileInfo, error)  { return e.f.FileInfo(), nil }
func (e zipEntry) Open() (io.ReadCloser, error) { return e.f.Open() }

type dataEntry struct {
	name string
	data []byte
}

func (e dataEntry) Path() string                 { return e.name }
func (e dataEntry) Lstat() (os.FileInfo, error)  { return dataInfo(e), nil }
func (e dataEntry) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(e.data)), nil }

type dataInfo dataEntry

func (i dataInfo) Name() string       { return path.Base(i.name) }
func (i dataInfo) Size() int64        { return int64(len(i.data)) }
func (i dataInfo) Mode() os.FileMode  { return 0o644 }
func (i dataInfo) ModTime() time.Time { return time.Time{} }
func (i dataInfo) IsDir() bool        { return false }
func (i dataInfo) Sys() any           { return nil }

func git(repo string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// workspace is the repository's go.work and its two modules' go.mod files.
type workspace struct {
	repo      string
	work      *modfile.WorkFile
	root      *modfile.File
	fetch     *modfile.File
	rootPath  string // the root module's path
	fetchPath string
}

func loadWorkspace(repo string) (*workspace, error) {
	w := &workspace{repo: repo}
	data, err := os.ReadFile(filepath.Join(repo, "go.work"))
	if err != nil {
		return nil, err
	}
	if w.work, err = modfile.ParseWork("go.work", data, nil); err != nil {
		return nil, err
	}
	if w.root, err = parseMod(filepath.Join(repo, "go.mod")); err != nil {
		return nil, err
	}
	if w.fetch, err = parseMod(filepath.Join(repo, fetchDir, "go.mod")); err != nil {
		return nil, err
	}
	w.rootPath = w.root.Module.Mod.Path
	w.fetchPath = w.fetch.Module.Mod.Path
	return w, nil
}

func parseMod(file string) (*modfile.File, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(file, data, nil)
	if err == nil && f.Module == nil {
		err = fmt.Errorf("%s: no module directive", file)
	}
	return f, err
}

func check(repo, version string) error {
	w, err := loadWorkspace(repo)
	if err != nil {
		return err
	}
	var faults []string
	fault := func(format string, args ...any) { faults = append(faults, fmt.Sprintf(format, args...)) }

	// Every go.mod that Git tracks, this tool's included.
	out, err := git(repo, "ls-files", "-z", "--", ":(glob)**/go.mod")
	if err != nil {
		return err
	}
	for name := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		f, err := parseMod(filepath.Join(repo, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		for _, r := range f.Replace {
			fault("%s: replace %s: no go.mod may have a replace directive (go install pkg@version refuses the module, and go get ignores it); develop through go.work instead", name, r.Old.Path)
		}
	}

	var uses []string
	for _, u := range w.work.Use {
		uses = append(uses, path.Clean(filepath.ToSlash(u.Path)))
	}
	for _, want := range []string{".", fetchDir} {
		if !slices.Contains(uses, want) {
			fault("go.work: no `use ./%s`", strings.TrimPrefix(want, "."))
		}
	}
	replaced := false
	for _, r := range w.work.Replace {
		switch {
		case r.Old.Path == w.rootPath && r.Old.Version == version && r.New.Version == "" && path.Clean(filepath.ToSlash(r.New.Path)) == ".":
			replaced = true
		case r.Old.Path == w.rootPath:
			fault("go.work: replace %s %s => %s %s: want only `replace %s %s => ./`", r.Old.Path, r.Old.Version, r.New.Path, r.New.Version, w.rootPath, version)
		default:
			fault("go.work: replace %s: only the root module's pinned version is replaced", r.Old.Path)
		}
	}
	if !replaced {
		fault("go.work: no `replace %s %s => ./` (without it every go command in the workspace asks a proxy for %[2]s's go.mod; golang/go#66516)", w.rootPath, version)
	}

	required := ""
	for _, r := range w.fetch.Require {
		if r.Mod.Path == w.rootPath {
			required = r.Mod.Version
		}
	}
	if required != version {
		fault("%s/go.mod requires %s %q, want %s (the version in .ci/release.env)", fetchDir, w.rootPath, required, version)
	}
	if len(faults) > 0 {
		return errors.New(strings.Join(faults, "\n\t"))
	}
	fmt.Printf("no replace in any go.mod; go.work uses . and ./%s and replaces %s %s with ./; %s requires %[2]s %[3]s\n",
		fetchDir, w.rootPath, version, w.fetchPath)
	return nil
}

func pin(repo, version string) error {
	if semver.Canonical(version) != version {
		return fmt.Errorf("version %q is not canonical", version)
	}
	w, err := loadWorkspace(repo)
	if err != nil {
		return err
	}
	if err := w.fetch.AddRequire(w.rootPath, version); err != nil {
		return err
	}
	w.fetch.Cleanup()
	for _, r := range slices.Clone(w.work.Replace) {
		if r.Old.Path == w.rootPath {
			if err := w.work.DropReplace(r.Old.Path, r.Old.Version); err != nil {
				return err
			}
		}
	}
	if err := w.work.AddReplace(w.rootPath, version, "./", ""); err != nil {
		return err
	}
	w.work.Cleanup()
	fetchMod, err := w.fetch.Format()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(repo, fetchDir, "go.mod"), fetchMod, 0o666); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(repo, "go.work"), modfile.Format(w.work.Syntax), 0o666)
}
