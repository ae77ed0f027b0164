package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The types below are the parts of the Kubernetes API (core/v1, apps/v1,
// batch/v1) that the manifests use, with the API's JSON field names. A
// manifest is decoded strictly: a field these types do not have, misspelt
// or misplaced, is an error, as kubectl's server-side field validation
// makes it.

type objectMeta struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

type typeMeta struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
}

type namespace struct {
	typeMeta
}

type persistentVolumeClaim struct {
	typeMeta
	Spec struct {
		AccessModes []string `json:"accessModes"`
		Resources   struct {
			Requests map[string]string `json:"requests"`
		} `json:"resources"`
	} `json:"spec"`
}

type labelSelector struct {
	MatchLabels map[string]string `json:"matchLabels"`
}

type deployment struct {
	typeMeta
	Spec struct {
		Replicas *int `json:"replicas"`
		Strategy *struct {
			Type string `json:"type"`
		} `json:"strategy"`
		Selector labelSelector `json:"selector"`
		Template podTemplate   `json:"template"`
	} `json:"spec"`
}

type service struct {
	typeMeta
	Spec struct {
		Selector map[string]string `json:"selector"`
		Ports    []struct {
			Name       string          `json:"name"`
			Port       int             `json:"port"`
			TargetPort json.RawMessage `json:"targetPort"`
		} `json:"ports"`
	} `json:"spec"`
}

type job struct {
	typeMeta
	Spec struct {
		CompletionMode          string      `json:"completionMode"`
		Completions             *int        `json:"completions"`
		Parallelism             *int        `json:"parallelism"`
		BackoffLimit            *int        `json:"backoffLimit"`
		TTLSecondsAfterFinished *int        `json:"ttlSecondsAfterFinished"`
		Template                podTemplate `json:"template"`
	} `json:"spec"`
}

type podTemplate struct {
	Metadata struct {
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec podSpec `json:"spec"`
}

type podSpec struct {
	RestartPolicy string      `json:"restartPolicy"`
	Affinity      *affinity   `json:"affinity"`
	Containers    []container `json:"containers"`
	Volumes       []struct {
		Name                  string `json:"name"`
		PersistentVolumeClaim *struct {
			ClaimName string `json:"claimName"`
		} `json:"persistentVolumeClaim"`
	} `json:"volumes"`
}

type affinity struct {
	PodAntiAffinity *struct {
		Required []struct {
			TopologyKey   string        `json:"topologyKey"`
			LabelSelector labelSelector `json:"labelSelector"`
		} `json:"requiredDuringSchedulingIgnoredDuringExecution"`
	} `json:"podAntiAffinity"`
}

type container struct {
	Name    string   `json:"name"`
	Image   string   `json:"image"`
	Command []string `json:"command"`
	Args    []string `json:"args"`
	Env     []struct {
		Name      string `json:"name"`
		Value     string `json:"value"`
		ValueFrom *struct {
			FieldRef *struct {
				FieldPath string `json:"fieldPath"`
			} `json:"fieldRef"`
			SecretKeyRef *struct {
				Name string `json:"name"`
				Key  string `json:"key"`
			} `json:"secretKeyRef"`
		} `json:"valueFrom"`
	} `json:"env"`
	Ports []struct {
		Name          string `json:"name"`
		ContainerPort int    `json:"containerPort"`
	} `json:"ports"`
	ReadinessProbe *struct {
		Exec struct {
			Command []string `json:"command"`
		} `json:"exec"`
		PeriodSeconds int `json:"periodSeconds"`
	} `json:"readinessProbe"`
	Resources struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	} `json:"resources"`
	VolumeMounts []struct {
		Name      string `json:"name"`
		MountPath string `json:"mountPath"`
	} `json:"volumeMounts"`
}

// kinds are the API versions and kinds the manifests may use, each with the
// type it decodes into.
var kinds = map[string]func() any{
	"v1/Namespace":             func() any { return new(namespace) },
	"v1/PersistentVolumeClaim": func() any { return new(persistentVolumeClaim) },
	"v1/Service":               func() any { return new(service) },
	"apps/v1/Deployment":       func() any { return new(deployment) },
	"batch/v1/Job":             func() any { return new(job) },
}

var (
	dnsLabel     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	envName      = regexp.MustCompile(`^[-._a-zA-Z][-._a-zA-Z0-9]*$`)
	quantity     = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)
	taggedImage  = regexp.MustCompile(`^[a-z0-9./-]+:[A-Za-z0-9._-]+$`)
	shardOfIndex = regexp.MustCompile(`^\$\(\(\s*JOB_COMPLETION_INDEX\s*\+\s*1\s*\)\)/([0-9]+)$`)
)

// A manifest is one decoded object with where it came from.
type manifest struct {
	where string // file: kind name
	file  string
	src   string
	obj   any
	meta  typeMeta
}

// readManifests decodes the YAML documents of a file strictly, each into
// the type of its apiVersion and kind.
func readManifests(file string, src []byte) ([]*manifest, []error) {
	var ms []*manifest
	var errs []error
	for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(src), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^#.*$`).ReplaceAllString(doc, "")) == "" {
			continue
		}
		var tm typeMeta
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			errs = append(errs, fmt.Errorf("%s: document %d: %v", file, i+1, err))
			continue
		}
		newObj, ok := kinds[tm.APIVersion+"/"+tm.Kind]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: document %d: apiVersion %q kind %q is none of the API's kinds used here", file, i+1, tm.APIVersion, tm.Kind))
			continue
		}
		m := &manifest{where: fmt.Sprintf("%s: %s %s", file, tm.Kind, tm.Metadata.Name), file: file, src: string(src), obj: newObj(), meta: tm}
		if err := yaml.UnmarshalStrict([]byte(doc), m.obj); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", m.where, err))
			continue
		}
		ms = append(ms, m)
	}
	return ms, errs
}

// line returns the line of file where s first occurs, or 1.
func (m *manifest) line(s string) int {
	if i := strings.Index(m.src, s); i >= 0 {
		return strings.Count(m.src[:i], "\n") + 1
	}
	return 1
}

// checkManifests checks the manifests of deploy/k8s as an API server and
// kubectl would (kinds, names, required fields, selectors that match,
// references to ports, claims and Secrets that exist or are documented),
// checks each mbench command of their containers against mbench's flags,
// and checks the recipe: an Indexed Job of N completions, all running at
// once, measuring shard JOB_COMPLETION_INDEX+1 of N into MBENCH_DB under
// one label, and a Job comparing that label.
func checkManifests(c *mbenchCLI, files map[string][]byte, secretKeys []string) []error {
	var all []*manifest
	var errs []error
	names := slices.Sorted(func(yield func(string) bool) {
		for f := range files {
			if !yield(f) {
				return
			}
		}
	})
	for _, f := range names {
		ms, e := readManifests(f, files[f])
		all, errs = append(all, ms...), append(errs, e...)
	}
	fail := func(m *manifest, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", m.where, fmt.Sprintf(format, args...)))
	}
	namespaces := map[string]bool{}
	claims := map[string]bool{}
	var podLabels []map[string]string
	var portNames []string
	for _, m := range all {
		if !dnsLabel.MatchString(m.meta.Metadata.Name) {
			fail(m, "metadata.name %q is not a DNS label", m.meta.Metadata.Name)
		}
		switch o := m.obj.(type) {
		case *namespace:
			namespaces[o.Metadata.Name] = true
		case *persistentVolumeClaim:
			claims[o.Metadata.Name] = true
			if len(o.Spec.AccessModes) == 0 || !quantity.MatchString(o.Spec.Resources.Requests["storage"]) {
				fail(m, "a claim needs accessModes and resources.requests.storage")
			}
		case *deployment:
			if !subset(o.Spec.Selector.MatchLabels, o.Spec.Template.Metadata.Labels) || len(o.Spec.Selector.MatchLabels) == 0 {
				fail(m, "selector %v does not match the template's labels %v", o.Spec.Selector.MatchLabels, o.Spec.Template.Metadata.Labels)
			}
			podLabels = append(podLabels, o.Spec.Template.Metadata.Labels)
			for _, ct := range o.Spec.Template.Spec.Containers {
				for _, p := range ct.Ports {
					portNames = append(portNames, p.Name, strconv.Itoa(p.ContainerPort))
				}
			}
		case *job:
			if rp := o.Spec.Template.Spec.RestartPolicy; rp != "Never" && rp != "OnFailure" {
				fail(m, "restartPolicy %q: a Job's pods need Never or OnFailure", rp)
			}
		}
		if m.meta.Kind != "Namespace" && m.meta.Metadata.Namespace == "" {
			fail(m, "no metadata.namespace")
		}
	}
	for _, m := range all {
		if m.meta.Kind != "Namespace" && !namespaces[m.meta.Metadata.Namespace] {
			fail(m, "namespace %q is not created by the manifests", m.meta.Metadata.Namespace)
		}
		if s, ok := m.obj.(*service); ok {
			if !slices.ContainsFunc(podLabels, func(l map[string]string) bool { return len(s.Spec.Selector) > 0 && subset(s.Spec.Selector, l) }) {
				fail(m, "selector %v matches no pods of the manifests", s.Spec.Selector)
			}
			for _, p := range s.Spec.Ports {
				target := strings.Trim(string(p.TargetPort), `"`)
				if p.Port < 1 || p.Port > 65535 || !slices.Contains(portNames, target) {
					fail(m, "port %d targets %s, which no container exposes", p.Port, target)
				}
			}
		}
	}

	var shardLabel string
	var shardJob *manifest
	var compared []string
	for _, m := range all {
		var spec podSpec
		switch o := m.obj.(type) {
		case *deployment:
			spec = o.Spec.Template.Spec
		case *job:
			spec = o.Spec.Template.Spec
		default:
			continue
		}
		for _, v := range spec.Volumes {
			if v.PersistentVolumeClaim != nil && !claims[v.PersistentVolumeClaim.ClaimName] {
				fail(m, "volume %s: claim %s is not in the manifests", v.Name, v.PersistentVolumeClaim.ClaimName)
			}
		}
		if len(spec.Containers) == 0 {
			fail(m, "no containers")
		}
		for _, ct := range spec.Containers {
			env := map[string]string{}
			for _, e := range ct.Env {
				if !envName.MatchString(e.Name) || env[e.Name] != "" {
					fail(m, "container %s: env name %q is invalid or repeated", ct.Name, e.Name)
				}
				env[e.Name] = e.Value
				if e.ValueFrom != nil {
					env[e.Name] = "from " + e.Name
					if r := e.ValueFrom.SecretKeyRef; r != nil && (r.Name != "mbench-db" || !slices.Contains(secretKeys, r.Key)) {
						fail(m, "container %s: env %s from Secret %s key %s, which deploy/README.md does not create (keys %v)", ct.Name, e.Name, r.Name, r.Key, secretKeys)
					}
				}
			}
			if !dnsLabel.MatchString(ct.Name) || !taggedImage.MatchString(ct.Image) || strings.HasSuffix(ct.Image, ":latest") {
				fail(m, "container %q: want a DNS-label name and an image with a version tag, have image %q", ct.Name, ct.Image)
			}
			for _, res := range []map[string]string{ct.Resources.Requests, ct.Resources.Limits} {
				for k, v := range res {
					if !quantity.MatchString(v) {
						fail(m, "container %s: resource %s %q is not a quantity", ct.Name, k, v)
					}
				}
			}
			invs, e := containerInvocations(c, m, ct)
			errs = append(errs, e...)
			for _, inv := range invs {
				if j, ok := m.obj.(*job); ok && inv.command[0] == "run" {
					shardJob, shardLabel = m, env[strings.Trim(inv.flags["label"], `"${}`)]
					errs = append(errs, checkIndexedJob(m, j, inv, env)...)
				}
				if inv.command[0] == "compare" {
					for _, a := range inv.args {
						compared = append(compared, env[strings.Trim(a, "${}")])
					}
				}
			}
		}
	}
	switch {
	case shardJob == nil:
		errs = append(errs, fmt.Errorf("k8s: no Job runs mbench run"))
	case shardLabel == "" || !slices.Contains(compared, shardLabel):
		errs = append(errs, fmt.Errorf("%s: its label %q is compared by no Job (mbench compare ... $LABEL)", shardJob.where, shardLabel))
	}
	return errs
}

// checkIndexedJob checks the Job that runs the shards.
func checkIndexedJob(m *manifest, j *job, inv *invocation, env map[string]string) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", m.where, fmt.Sprintf(format, args...)))
	}
	s := j.Spec
	if s.CompletionMode != "Indexed" {
		fail("completionMode %q: the shards need Indexed, which sets JOB_COMPLETION_INDEX", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism || *s.Completions < 1 {
		fail("completions and parallelism must be equal, so that every shard runs at once")
		return errs
	}
	sm := shardOfIndex.FindStringSubmatch(inv.flags["shard"])
	if sm == nil {
		fail("%v: -shard %q, want \"$((JOB_COMPLETION_INDEX + 1))/%d\"", inv, inv.flags["shard"], *s.Completions)
	} else if n, _ := strconv.Atoi(sm[1]); n != *s.Completions {
		fail("%v: -shard .../%d, but the Job has %d completions", inv, n, *s.Completions)
	}
	if inv.flags["label"] == "" {
		fail("%v: no -label: the shards would not be one result", inv)
	}
	if db := inv.flags["db"]; db != "$MBENCH_DB" && db != "${MBENCH_DB}" || env["MBENCH_DB"] != "from MBENCH_DB" {
		fail("%v: want -db \"$MBENCH_DB\" with MBENCH_DB from the Secret", inv)
	}
	return errs
}

// containerInvocations returns the mbench commands of a container: its
// command and args as one command line, or the script of `sh -c SCRIPT`.
func containerInvocations(c *mbenchCLI, m *manifest, ct container) ([]*invocation, []error) {
	argv := append(slices.Clone(ct.Command), ct.Args...)
	if len(argv) >= 3 && (argv[0] == "sh" || argv[0] == "bash" || argv[0] == "/bin/sh") && argv[1] == "-c" {
		script := argv[2]
		first, _, _ := strings.Cut(strings.TrimSpace(script), "\n")
		return c.invocations(m.file, m.line(first), script)
	}
	if len(argv) > 0 && isMbench(argv[0]) {
		inv, err := c.parse(fmt.Sprintf("%s:%d", m.file, m.line(argv[0])), argv[1:])
		if err != nil {
			return nil, []error{err}
		}
		return []*invocation{inv}, nil
	}
	return nil, nil
}

func subset(sub, of map[string]string) bool {
	for k, v := range sub {
		if of[k] != v {
			return false
		}
	}
	return true
}

// secretCommand finds the `kubectl create secret generic mbench-db`
// command in markdown and returns the keys it creates and the host and
// port of the URL in key url.
func secretCommand(c *mbenchCLI, md string) (keys []string, host string, err error) {
	scripts, _ := markdownScripts(md)
	for _, s := range scripts {
		cmds, err := shellCommands(s)
		if err != nil {
			return nil, "", err
		}
		for _, cmd := range cmds {
			w := cmd.words
			if len(w) < 5 || w[0] != "kubectl" || !slices.Contains(w, "secret") || !slices.Contains(w, "mbench-db") {
				continue
			}
			for _, a := range w {
				lit, ok := strings.CutPrefix(a, "--from-literal=")
				if !ok {
					continue
				}
				k, v, _ := strings.Cut(lit, "=")
				keys = append(keys, k)
				if k == "url" {
					u, err := url.Parse(v)
					if err != nil {
						return nil, "", fmt.Errorf("the url of Secret mbench-db: %v", err)
					}
					host = u.Host
				}
			}
			return keys, host, nil
		}
	}
	return nil, "", fmt.Errorf("no kubectl create secret generic mbench-db command")
}

func readK8s(t *testing.T) map[string][]byte {
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in k8s/: %v", err)
	}
	m := map[string][]byte{}
	for _, f := range files {
		if m[f], err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestManifests(t *testing.T) {
	c := buildMbench(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	keys, host, err := secretCommand(c, string(readme))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	files := readK8s(t)
	for _, err := range checkManifests(c, files, keys) {
		t.Error(err)
	}
	// The URL of the Secret names the Service of postgres.yaml.
	var svc string
	ms, _ := readManifests("k8s/postgres.yaml", files["k8s/postgres.yaml"])
	for _, m := range ms {
		if s, ok := m.obj.(*service); ok && len(s.Spec.Ports) > 0 {
			svc = fmt.Sprintf("%s.%s.svc:%d", s.Metadata.Name, s.Metadata.Namespace, s.Spec.Ports[0].Port)
		}
	}
	if host != svc || !bytes.Contains(readme, []byte(svc)) {
		t.Errorf("README.md: the Secret's url names %s, want the Service of k8s/postgres.yaml, %s", host, svc)
	}
}
