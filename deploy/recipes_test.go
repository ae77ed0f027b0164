package deploy

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// A mutation breaks a copy of a recipe in one place; the checks must then
// report an error containing want.
type mutation struct {
	old, new string
	want     string
}

func mutate(t *testing.T, file string, src []byte, m mutation) []byte {
	t.Helper()
	if n := strings.Count(string(src), m.old); n != 1 {
		t.Fatalf("%s: %q occurs %d times, want once", file, m.old, n)
	}
	return []byte(strings.Replace(string(src), m.old, m.new, 1))
}

func wantError(t *testing.T, errs []error, m mutation) {
	t.Helper()
	if err := errors.Join(errs...); err == nil || !strings.Contains(err.Error(), m.want) {
		t.Errorf("%q → %q: errors\n%v\nwant one containing %q", m.old, m.new, err, m.want)
	}
}

// TestWorkflowChecksFail breaks copies of the workflow and checks that
// each break is reported, so that TestWorkflows cannot pass by accident.
func TestWorkflowChecksFail(t *testing.T) {
	c := buildMbench(t)
	const file = "github/mbench-ab.yml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if errs := checkWorkflow(c, file, src); len(errs) > 0 {
		t.Fatalf("the workflow itself fails its checks: %v", errors.Join(errs...))
	}
	for _, m := range []mutation{
		{`-instance "$INSTANCE"`, `-instances "$INSTANCE"`, file + ":57: mbench ab: flag -instances is not defined"},
		{`-new-label "$PR"`, `-new-label "$NUMBER"`, `compares ["$BASE..$PR"], want the shards' label "${{ github.base_ref }}..$NUMBER" alone`},
		{`-old-label "$BASE" -new-label "$PR"`, ``, `-shard without a label`},
		{`mbench store copy "$db" mbench.db`, `mbench stores copy "$db" mbench.db`, `mbench has no command "stores"`},
		{`-format markdown -fail "$BASE..$PR"`, `-format markdown "$BASE..$PR" -fail`, `-fail comes after the arguments`},
		{`-format markdown -fail "$BASE..$PR"`, `-format markdown "$BASE..$PR"`, `want -format markdown and -fail`},
		{`"$BASE..$PR" >comparison.md`, `"$PR" >comparison.md`, `want the shards' label "${{ github.base_ref }}..pr-${{ github.event.number }}" alone`},
		{`mbench store copy "$db" mbench.db`, `mbench store copy -labels x "$db" mbench.db`, `mbench store copy: flag -labels is not defined`},
		{`shard: [1, 2, 3, 4]`, `shard: [1, 2, 4]`, `matrix.shard[2] is "4", want 3`},
		{`${{ matrix.shard }}/${{ strategy.job-total }}`, `${{ matrix.shard }}/3`, `-shard ${{ matrix.shard }}/3, want ${{ matrix.shard }}/4`},
		{`Measure shard ${{ matrix.shard }}`, `Measure shard ${{ matrix.shrd }}`, `actionlint: property "shrd" is not defined`},
		{`fetch-depth: 0`, `fetch-dept: 0`, `actionlint: input "fetch-dept" is not defined in action "actions/checkout@v5"`},
		{"          path: shard.db\n", "          path: other.db\n", "the shard's store shard.db is not uploaded"},
		{`pull-requests: write`, `pull-requests: read`, "without permissions: pull-requests: write"},
		{`gh pr comment`, `gh pr view`, "the comparison is not posted"},
		{"fetch-depth: 0\n", "fetch-depth: 1\n", `-old origin/$BASE needs the history: actions/checkout with fetch-depth: 0`},
		{`pattern: mbench-shard-*`, `pattern: shard-*`, `pattern "shard-*" does not match the artifact mbench-shard-1`},
		{"          path: shards\n", "          path: shards\n          merge-multiple: true\n", `would overwrite each other`},
		{`for db in shards/*/shard.db`, `for db in shards/shard.db`, `the shards' stores (shard.db) are not copied into one`},
		{`name: mbench-shard-${{ matrix.shard }}`, `name: mbench-shard`, `not uploaded under a name with ${{ matrix.shard }}`},
	} {
		wantError(t, checkWorkflow(c, file, mutate(t, file, src, m)), m)
	}
}

// TestManifestChecksFail does the same for the Kubernetes manifests.
func TestManifestChecksFail(t *testing.T) {
	c := buildMbench(t)
	files := readK8s(t)
	keys := []string{"password", "url"}
	if errs := checkManifests(c, files, keys); len(errs) > 0 {
		t.Fatalf("the manifests themselves fail their checks: %v", errors.Join(errs...))
	}
	for _, tc := range []struct {
		file string
		mutation
	}{
		{"k8s/shards.yaml", mutation{`-label "$LABEL"`, `-lable "$LABEL"`, "k8s/shards.yaml:63: mbench run: flag -lable is not defined"}},
		{"k8s/gather.yaml", mutation{`mbench compare -db`, `mbench comparison -db`, `mbench has no command "comparison"`}},
		{"k8s/gather.yaml", mutation{`"$BASELINE" "$LABEL"`, `"$BASELINE" "$REVISION"`, `its label "go-toml-v2.2.4" is compared by no Job`}},
		{"k8s/shards.yaml", mutation{`parallelism: 4`, `parallelism: 2`, "completions and parallelism must be equal"}},
		{"k8s/shards.yaml", mutation{"  completions: 4\n  parallelism: 4", "  completions: 8\n  parallelism: 8", "-shard .../4, but the Job has 8 completions"}},
		{"k8s/shards.yaml", mutation{`completionMode: Indexed`, `completionMode: NonIndexed`, `completionMode "NonIndexed"`}},
		{"k8s/shards.yaml", mutation{`"$((JOB_COMPLETION_INDEX + 1))/4"`, `"$JOB_COMPLETION_INDEX/4"`, `want "$((JOB_COMPLETION_INDEX + 1))/4"`}},
		{"k8s/shards.yaml", mutation{`restartPolicy: Never`, `restartPolicy: Always`, `restartPolicy "Always"`}},
		{"k8s/shards.yaml", mutation{`ttlSecondsAfterFinished`, `ttlSecondAfterFinished`, `unknown field "ttlSecondAfterFinished"`}},
		{"k8s/shards.yaml", mutation{`key: url`, `key: uri`, "key uri, which deploy/README.md does not create"}},
		{"k8s/shards.yaml", mutation{`image: golang:1.26`, `image: golang`, `an image with a version tag`}},
		{"k8s/postgres.yaml", mutation{`claimName: postgres-data`, `claimName: postgres-dat`, "claim postgres-dat is not in the manifests"}},
		{"k8s/postgres.yaml", mutation{`targetPort: postgres`, `targetPort: pg`, "targets pg, which no container exposes"}},
		{"k8s/postgres.yaml", mutation{"apiVersion: apps/v1", "apiVersion: apps/v1beta1", `apiVersion "apps/v1beta1" kind "Deployment"`}},
	} {
		broken := map[string][]byte{}
		for f, src := range files {
			broken[f] = src
		}
		broken[tc.file] = mutate(t, tc.file, files[tc.file], tc.mutation)
		wantError(t, checkManifests(c, broken, keys), tc.mutation)
	}
}

// docScripts returns the shell blocks of the pages that show the recipes:
// this directory's README, docs/scale-out.md, and the repository README's
// section "Sharding in CI", which must exist and show the recipe in at
// most ten lines.
func docScripts(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	for _, f := range []string{"README.md", "../docs/scale-out.md", "../README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[f] = string(b)
	}
	const heading = "## Sharding in CI\n"
	readme := pages["../README.md"]
	i := strings.Index(readme, heading)
	if i < 0 {
		t.Fatalf("../README.md: no section %q", strings.TrimSpace(heading))
	}
	// Keep the section's lines where they are, so that errors name them.
	section := readme[i:]
	if j := strings.Index(section[len(heading):], "\n## "); j >= 0 {
		section = section[:len(heading)+j+1]
	}
	pages["../README.md"] = strings.Repeat("\n", strings.Count(readme[:i], "\n")) + section
	scripts, _ := markdownScripts(section)
	if len(scripts) != 1 {
		t.Errorf("../README.md: section %q has %d shell blocks, want the recipe in one", strings.TrimSpace(heading), len(scripts))
	} else if n := len(strings.Split(strings.TrimSpace(scripts[0]), "\n")); n > 10 {
		t.Errorf("../README.md: the recipe has %d lines, want at most ten", n)
	}
	return pages
}

// TestDocs checks the mbench commands the documentation shows.
func TestDocs(t *testing.T) {
	c := buildMbench(t)
	var n int
	for file, page := range docScripts(t) {
		scripts, lines := markdownScripts(page)
		for i, s := range scripts {
			invs, errs := c.invocations(file, lines[i], s)
			for _, err := range errs {
				t.Error(err)
			}
			n += len(invs)
		}
	}
	if n == 0 {
		t.Error("the documentation shows no mbench command")
	}
}
