// estargz-mount: mounts every layer of one eStargz image lazily, from a
// registry on loopback, with the stargz snapshotter's own file system
// (github.com/containerd/stargz-snapshotter/fs, from Debian's
// golang-github-containerd-stargz-snapshotter-dev 0.12.0), as the snapshotter
// does for a container, and keeps the mounts until SIGTERM or SIGINT, then
// unmounts them. benchgraph's estargz paths put an overlay on the mounts and
// start the command with crun, as the lazy path does on its erofs mount: the
// runtime and the overlay are the same, only the image reader differs.
//
//	estargz-mount -ref 127.0.0.1:PORT/REPO:TAG -root CACHE_DIR -mnt DIR -ready FILE [-prefetch]
//
// Layer i is mounted at DIR/i. After every layer is mounted and checked (the
// snapshotter's Check, which waits for the prefetch when it is on), FILE gets
// the mount points, top layer first, one per line, written whole (renamed
// into place).
//
// -prefetch: fetch the layer's prioritized files (those before the prefetch
// landmark `ctr-remote image optimize` records) in one range before the
// layer is ready, as the snapshotter does by default; off, nothing is read
// until a file is. Background fetch of the rest of the layer is always off,
// so the bytes fetched by a launch are what it read (and prefetched).
//
// Exit codes: 0 unmounted after a signal; 2 usage; 3 a layer is not eStargz
// (no TOC digest annotation: a snapshotter would fall back to a full pull,
// which this helper never does); 4 a mount or check failed (what was mounted
// is unmounted first); 5 the image could not be resolved or read.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/containerd/containerd/images"
	"github.com/containerd/containerd/log"
	"github.com/containerd/containerd/platforms"
	"github.com/containerd/containerd/reference"
	"github.com/containerd/containerd/remotes/docker"
	"github.com/containerd/stargz-snapshotter/estargz"
	"github.com/containerd/stargz-snapshotter/fs"
	"github.com/containerd/stargz-snapshotter/fs/config"
	"github.com/containerd/stargz-snapshotter/fs/source"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"github.com/sirupsen/logrus"
)

func main() {
	ref := flag.String("ref", "", "image reference on a loopback registry, e.g. 127.0.0.1:5000/repo:tag")
	root := flag.String("root", "", "folder of the file system's state and cache (fresh for a cold start)")
	mnt := flag.String("mnt", "", "folder: layer i is mounted at <mnt>/<i>")
	ready := flag.String("ready", "", "file written with the mount points, top layer first, once every layer is ready")
	prefetch := flag.Bool("prefetch", false, "prefetch the prioritized files before a layer is ready")
	flag.Parse()
	if *ref == "" || *root == "" || *mnt == "" || *ready == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: estargz-mount -ref REF -root DIR -mnt DIR -ready FILE [-prefetch]")
		os.Exit(2)
	}
	host := strings.SplitN(*ref, "/", 2)[0]
	if !loopback(host) {
		fail(2, "the registry %s is not on loopback (127.0.0.1, [::1] or localhost); refused", host)
	}
	logrus.SetLevel(logrus.WarnLevel)
	logrus.SetOutput(os.Stderr)
	ctx := log.WithLogger(context.Background(), log.L)

	// Plain HTTP to loopback only, with a transport of its own (fs's default sources have none and
	// nil-panic in fs/remote on a redirect in 0.12.0).
	hosts := docker.ConfigureDefaultRegistries(
		docker.WithPlainHTTP(docker.MatchLocalhost),
		docker.WithClient(&http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}),
	)
	resolver := docker.NewResolver(docker.ResolverOptions{Hosts: hosts})
	name, desc, err := resolver.Resolve(ctx, *ref)
	if err != nil {
		fail(5, "resolve %s: %v", *ref, err)
	}
	fetcher, err := resolver.Fetcher(ctx, name)
	if err != nil {
		fail(5, "fetcher for %s: %v", name, err)
	}
	get := func(d ocispec.Descriptor, v interface{}) {
		rc, err := fetcher.Fetch(ctx, d)
		if err != nil {
			fail(5, "fetch %s: %v", d.Digest, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err == nil {
			err = json.Unmarshal(b, v)
		}
		if err != nil {
			fail(5, "read %s: %v", d.Digest, err)
		}
	}
	if desc.MediaType == images.MediaTypeDockerSchema2ManifestList || desc.MediaType == ocispec.MediaTypeImageIndex {
		var idx ocispec.Index
		get(desc, &idx)
		m := platforms.Default()
		found := false
		for _, d := range idx.Manifests {
			if d.Platform == nil || m.Match(*d.Platform) {
				desc, found = d, true
				break
			}
		}
		if !found {
			fail(5, "%s has no manifest for %s", *ref, platforms.DefaultString())
		}
	}
	var mf ocispec.Manifest
	get(desc, &mf)
	digests := make([]string, 0, len(mf.Layers))
	for i, l := range mf.Layers {
		if _, ok := l.Annotations[estargz.TOCJSONDigestAnnotation]; !ok {
			fail(3, "not eStargz: layer %d (%s) has no %s annotation, so a snapshotter would pull it whole", i, l.Digest, estargz.TOCJSONDigestAnnotation)
		}
		digests = append(digests, l.Digest.String())
	}

	cfg := config.Config{NoPrefetch: !*prefetch, NoBackgroundFetch: true}
	sources := source.FromDefaultLabels(func(spec reference.Spec) ([]docker.RegistryHost, error) { return hosts(spec.Hostname()) })
	fsys, err := fs.NewFilesystem(*root, cfg, fs.WithGetSources(sources))
	if err != nil {
		fail(4, "file system in %s: %v", *root, err)
	}
	var mounted []string
	unmountAll := func() {
		for i := len(mounted) - 1; i >= 0; i-- {
			if err := fsys.Unmount(ctx, mounted[i]); err != nil {
				fmt.Fprintf(os.Stderr, "estargz-mount: unmount %s: %v; detaching it\n", mounted[i], err)
				_ = syscall.Unmount(mounted[i], syscall.MNT_DETACH)
			}
		}
		mounted = nil
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	for i, l := range mf.Layers {
		mp := filepath.Join(*mnt, fmt.Sprint(i))
		if err := os.MkdirAll(mp, 0o755); err != nil {
			unmountAll()
			fail(4, "%v", err)
		}
		labels := map[string]string{
			"containerd.io/snapshot/remote/stargz.reference": name,
			"containerd.io/snapshot/remote/stargz.digest":    l.Digest.String(),
			"containerd.io/snapshot/remote/stargz.layers":    strings.Join(digests, ","),
		}
		for k, v := range l.Annotations {
			labels[k] = v
		}
		if err := fsys.Mount(ctx, mp, labels); err != nil {
			unmountAll()
			fail(4, "mount layer %d (%s) at %s: %v", i, l.Digest, mp, err)
		}
		mounted = append(mounted, mp)
		if err := fsys.Check(ctx, mp, labels); err != nil {
			unmountAll()
			fail(4, "check layer %d (%s): %v", i, l.Digest, err)
		}
	}
	top := make([]string, 0, len(mounted))
	for i := len(mounted) - 1; i >= 0; i-- {
		top = append(top, mounted[i])
	}
	tmp := *ready + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(top, "\n")+"\n"), 0o644); err == nil {
		err = os.Rename(tmp, *ready)
	} else {
		unmountAll()
		fail(4, "write %s: %v", *ready, err)
	}
	<-signals
	unmountAll()
}

func loopback(host string) bool {
	h := host
	if strings.HasPrefix(h, "[") {
		h = strings.SplitN(strings.TrimPrefix(h, "["), "]", 2)[0]
	} else if i := strings.LastIndex(h, ":"); i >= 0 {
		h = h[:i]
	}
	return h == "127.0.0.1" || h == "::1" || h == "localhost"
}

func fail(code int, format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "estargz-mount: "+format+"\n", args...)
	os.Exit(code)
}
