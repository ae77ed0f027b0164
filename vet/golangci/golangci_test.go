package golangci

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/mbench/mbench/vet"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("mbench")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := p.BuildAnalyzers()
	if len(all) != len(vet.Analyzers) || p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("default plugin: %d analyzers, load mode %q", len(all), p.GetLoadMode())
	}
	p, err = newPlugin(map[string]any{"only": []any{"deadresult", "bnsize"}})
	if err != nil {
		t.Fatal(err)
	}
	some, _ := p.BuildAnalyzers()
	if len(some) != 2 || some[0].Name != "deadresult" || some[1].Name != "bnsize" {
		t.Errorf("only deadresult,bnsize: %v", some)
	}
	if _, err := newPlugin(map[string]any{"only": []any{"nosuch"}}); err == nil {
		t.Error("an unknown analyzer was accepted")
	}
}
