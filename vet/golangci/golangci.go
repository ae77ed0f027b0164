// Package golangci registers mbench's benchmark analyzers as a golangci-lint
// module plugin (golangci-lint.run/plugins/module-plugins), so that a project
// already linting with golangci-lint gets them in the same run. In
// .custom-gcl.yml:
//
//	version: v2.5.0
//	plugins:
//	  - module: github.com/mbench/mbench
//	    import: github.com/mbench/mbench/vet/golangci
//	    version: latest
//
// then `golangci-lint custom` builds ./custom-gcl, and .golangci.yml enables
// the linter:
//
//	version: "2"
//	linters:
//	  enable: [mbench]
//	  settings:
//	    custom:
//	      mbench:
//	        type: module
//	        description: benchmark mistakes that make results lie
//	        settings:
//	          only: [deadresult, bnsize]   # optional; all by default
package golangci

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"github.com/mbench/mbench/vet"
	"golang.org/x/tools/go/analysis"
)

func init() { register.Plugin("mbench", New) }

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Only names the analyzers to run; empty means all.
	Only []string `json:"only"`
}

// Plugin is the golangci-lint plugin of mbench's analyzers.
type Plugin struct {
	analyzers []*analysis.Analyzer
}

// New returns the plugin for the decoded settings.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, err
	}
	p := &Plugin{analyzers: vet.Analyzers}
	if len(s.Only) > 0 {
		p.analyzers = nil
		for _, name := range s.Only {
			a := vet.Lookup(name)
			if a == nil {
				return nil, fmt.Errorf("mbench: unknown analyzer %q in settings.only", name)
			}
			p.analyzers = append(p.analyzers, a)
		}
	}
	return p, nil
}

// BuildAnalyzers returns the analyzers to run.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

// GetLoadMode says the analyzers need type information.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
