package deploy

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// lintWorkflow runs actionlint's rules on a workflow: its syntax, the
// expressions and the contexts they may use, the inputs of the actions it
// calls, runner labels, permissions, job dependencies and matrices.
// shellcheck and pyflakes, separate programs, are not run.
func lintWorkflow(file string, src []byte) []error {
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		return []error{err}
	}
	lintErrs, err := l.Lint(file, src, nil)
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, e := range lintErrs {
		errs = append(errs, fmt.Errorf("%s:%d:%d: actionlint: %s [%s]", file, e.Line, e.Column, e.Message, e.Kind))
	}
	return errs
}

// A workflowStep is a run step of a workflow with its mbench commands and
// the environment the workflow, the job and the step give it.
type workflowStep struct {
	job  string
	step *actionlint.Step
	env  map[string]string
	invs []*invocation
	cmds []shellCommand
}

// resolve replaces $NAME and ${NAME} in s by the step's environment.
func (s *workflowStep) resolve(v string) string {
	return envRef.ReplaceAllStringFunc(v, func(ref string) string {
		name := strings.Trim(ref, "${}")
		if val, ok := s.env[name]; ok {
			return val
		}
		return ref
	})
}

var envRef = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)

func addEnv(m map[string]string, e *actionlint.Env) {
	if e == nil {
		return
	}
	for _, v := range e.Vars {
		m[v.Name.Value] = v.Value.Value
	}
}

// checkWorkflow lints a workflow, checks every mbench command of its run
// steps against mbench's flags, and checks that it is the recipe
// docs/scale-out.md describes: a matrix job measuring shards 1..N of N
// under one label, into files it uploads (or into MBENCH_DB), and a job
// after it that gathers them, compares the label as markdown with -fail
// and comments on the pull request.
func checkWorkflow(c *mbenchCLI, file string, src []byte) []error {
	errs := lintWorkflow(file, src)
	wf, parseErrs := actionlint.Parse(src)
	if len(parseErrs) > 0 || wf == nil {
		return errs // actionlint reported them
	}
	var steps []*workflowStep
	jobIDs := make([]string, 0, len(wf.Jobs))
	for id := range wf.Jobs {
		jobIDs = append(jobIDs, id)
	}
	slices.Sort(jobIDs)
	for _, id := range jobIDs {
		job := wf.Jobs[id]
		for _, st := range job.Steps {
			run, ok := st.Exec.(*actionlint.ExecRun)
			if !ok || run.Run == nil {
				continue
			}
			env := map[string]string{}
			addEnv(env, wf.Env)
			addEnv(env, job.Env)
			addEnv(env, st.Env)
			line := run.Run.Pos.Line
			if !run.Run.Quoted && strings.Contains(run.Run.Value, "\n") {
				line++ // a block scalar starts on the line after "run: |"
			}
			ws := &workflowStep{job: id, step: st, env: env}
			invs, invErrs := c.invocations(file, line, run.Run.Value)
			ws.invs = invs
			ws.cmds, _ = shellCommands(run.Run.Value)
			for _, cmd := range ws.cmds {
				if len(cmd.words) == 4 && cmd.words[0] == "for" && cmd.words[2] == "in" {
					env[cmd.words[1]] = cmd.words[3] // what the loop variable takes
				}
			}
			errs = append(errs, invErrs...)
			steps = append(steps, ws)
		}
	}
	return append(errs, checkShardRecipe(file, wf, steps)...)
}

func checkShardRecipe(file string, wf *actionlint.Workflow, steps []*workflowStep) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", file, fmt.Sprintf(format, args...)))
	}
	failAt := func(inv *invocation, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%v: %s", inv, fmt.Sprintf(format, args...)))
	}
	var shardJob, shardDB, label string
	for _, s := range steps {
		for _, inv := range s.invs {
			shard, ok := inv.flags["shard"]
			if !ok {
				continue
			}
			if shardJob != "" {
				failAt(inv, "a second command measuring shards; the recipe has one")
				continue
			}
			shardJob, shardDB, label = s.job, s.resolve(inv.flags["db"]), s.resolve(inv.label())
			if old, ok := inv.flags["old"]; ok && slices.Equal(inv.command, []string{"ab"}) {
				if d := actionInput(wf.Jobs[s.job], "actions/checkout@", "fetch-depth"); d != "0" {
					failAt(inv, "-old %s needs the history: actions/checkout with fetch-depth: 0 (have %q)", old, d)
				}
			}
			if label == "" {
				failAt(inv, "-shard without a label (-label; for ab, -old-label and -new-label): the shards would not be one result")
			}
			n, err := matrixShards(wf.Jobs[s.job])
			if err != nil {
				fail("job %s: %v", s.job, err)
				continue
			}
			want := []string{"${{ matrix.shard }}/${{ strategy.job-total }}", fmt.Sprintf("${{ matrix.shard }}/%d", n)}
			if got := s.resolve(shard); !slices.Contains(want, got) {
				failAt(inv, "-shard %s, want %s: shard i of the %d jobs of matrix.shard", got, want[1], n)
			}
		}
	}
	if shardJob == "" {
		fail("no mbench command with -shard")
		return errs
	}
	if shardDB != "" {
		if !uploads(wf.Jobs[shardJob], shardDB) {
			fail("job %s: the shard's store %s is not uploaded (actions/upload-artifact with path: %s)", shardJob, shardDB, shardDB)
		}
	} else if db := steps[0].env["MBENCH_DB"]; !strings.Contains(db, "secrets.") {
		fail("the shards write neither to a file (-db) nor to the server of a secret MBENCH_DB (have %q)", db)
	}

	var shardFile string // where the gathering job finds the first shard's store
	var gathered bool
	for _, s := range steps {
		if s.job == shardJob || !slices.ContainsFunc(wf.Jobs[s.job].Needs, func(n *actionlint.String) bool { return n.Value == shardJob }) {
			continue
		}
		if shardDB != "" && shardFile == "" {
			var err error
			if shardFile, err = downloaded(wf.Jobs[shardJob], wf.Jobs[s.job], shardDB); err != nil {
				fail("job %s: %v", s.job, err)
			}
		}
		var copied bool
		for _, inv := range s.invs {
			switch strings.Join(inv.command, " ") {
			case "store copy":
				if len(inv.args) == 2 && shardFile != "" {
					ok, _ := path.Match(s.resolve(inv.args[0]), shardFile)
					copied = copied || ok
				}
			case "compare":
				if len(inv.args) != 1 || s.resolve(inv.args[0]) != label {
					failAt(inv, "compares %q, want the shards' label %q alone", inv.args, label)
				}
				if inv.flags["format"] != "markdown" || inv.flags["fail"] != "true" {
					failAt(inv, "want -format markdown and -fail")
				}
				if shardDB != "" && !copied {
					failAt(inv, "the shards' stores (%s) are not copied into one with mbench store copy before", shardDB)
				}
				gathered = true
			}
		}
		if gathered && !slices.ContainsFunc(s.cmds, func(c shellCommand) bool {
			return len(c.words) > 2 && c.words[0] == "gh" && c.words[1] == "pr" && c.words[2] == "comment"
		}) {
			fail("job %s: the comparison is not posted (gh pr comment)", s.job)
		}
		if gathered {
			if p := wf.Jobs[s.job].Permissions; p == nil || p.Scopes["pull-requests"] == nil || p.Scopes["pull-requests"].Value.Value != "write" {
				fail("job %s: comments on the pull request without permissions: pull-requests: write", s.job)
			}
			break
		}
	}
	if !gathered {
		fail("no job after %s compares the label %q (mbench compare -format markdown -fail)", shardJob, label)
	}
	return errs
}

// matrixShards returns N when a job's matrix is exactly shard: [1, ..., N].
func matrixShards(job *actionlint.Job) (int, error) {
	if job.Strategy == nil || job.Strategy.Matrix == nil {
		return 0, fmt.Errorf("no strategy.matrix")
	}
	m := job.Strategy.Matrix
	row := m.Rows["shard"]
	if row == nil || len(m.Rows) != 1 || m.Include != nil || m.Exclude != nil {
		return 0, fmt.Errorf("the matrix is not shard: [1, ..., N] alone, so strategy.job-total is not the number of shards")
	}
	for i, v := range row.Values {
		s, ok := v.(*actionlint.RawYAMLString)
		if !ok || s.Value != strconv.Itoa(i+1) {
			return 0, fmt.Errorf("matrix.shard[%d] is %v, want %d: shards are numbered 1..N", i, v, i+1)
		}
	}
	if len(row.Values) == 0 {
		return 0, fmt.Errorf("matrix.shard is empty")
	}
	return len(row.Values), nil
}

// actionInput returns the value of input name of the first step of job
// that uses an action whose reference begins with uses ("" if none).
func actionInput(job *actionlint.Job, uses, name string) string {
	for _, st := range job.Steps {
		a, ok := st.Exec.(*actionlint.ExecAction)
		if ok && strings.HasPrefix(a.Uses.Value, uses) {
			if in := a.Inputs[name]; in != nil && in.Value != nil {
				return in.Value.Value
			}
			return ""
		}
	}
	return ""
}

// downloaded returns the path at which the job gather finds the file p
// that the first shard of job shard uploads, as actions/download-artifact
// lays out several artifacts: each in a directory of its name under path.
func downloaded(shard, gather *actionlint.Job, p string) (string, error) {
	var raw string
	for _, st := range shard.Steps {
		a, ok := st.Exec.(*actionlint.ExecAction)
		if ok && strings.HasPrefix(a.Uses.Value, "actions/upload-artifact@") && a.Inputs["path"] != nil && a.Inputs["path"].Value.Value == p && a.Inputs["name"] != nil {
			raw = a.Inputs["name"].Value.Value
		}
	}
	// Shards uploading under one name would replace each other's file.
	name := strings.ReplaceAll(raw, "${{ matrix.shard }}", "1")
	if name == raw || strings.Contains(name, "${{") {
		return "", fmt.Errorf("the shards' stores %s are not uploaded under a name with ${{ matrix.shard }} alone (have %q)", p, raw)
	}
	if !slices.ContainsFunc(gather.Steps, func(st *actionlint.Step) bool {
		a, ok := st.Exec.(*actionlint.ExecAction)
		return ok && strings.HasPrefix(a.Uses.Value, "actions/download-artifact@")
	}) {
		return "", fmt.Errorf("the shards' stores are not downloaded (actions/download-artifact)")
	}
	pattern := actionInput(gather, "actions/download-artifact@", "pattern")
	if n := actionInput(gather, "actions/download-artifact@", "name"); n != "" || pattern == "" {
		return "", fmt.Errorf("actions/download-artifact without pattern: (name %q) does not fetch every shard's artifact", n)
	}
	if ok, _ := path.Match(pattern, name); !ok {
		return "", fmt.Errorf("actions/download-artifact pattern %q does not match the artifact %s", pattern, name)
	}
	if actionInput(gather, "actions/download-artifact@", "merge-multiple") == "true" {
		return "", fmt.Errorf("actions/download-artifact with merge-multiple: the shards' files %s would overwrite each other", path.Base(p))
	}
	return path.Join(cmp.Or(actionInput(gather, "actions/download-artifact@", "path"), "."), name, path.Base(p)), nil
}

// uploads reports whether a job uploads the file p as an artifact.
func uploads(job *actionlint.Job, p string) bool {
	for _, st := range job.Steps {
		a, ok := st.Exec.(*actionlint.ExecAction)
		if ok && strings.HasPrefix(a.Uses.Value, "actions/upload-artifact@") && a.Inputs["path"] != nil && a.Inputs["path"].Value.Value == p {
			return true
		}
	}
	return false
}

func workflowFiles(t *testing.T) []string {
	files, err := filepath.Glob("github/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows in github/: %v", err)
	}
	return files
}

func TestWorkflows(t *testing.T) {
	c := buildMbench(t)
	for _, f := range workflowFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range checkWorkflow(c, f, src) {
			t.Error(err)
		}
	}
}
