package stop

import (
	"strings"
	"testing"
	"time"
)

func TestDefaultConfigValid(t *testing.T) {
	if err := DefaultConfig.Validate(); err != nil {
		t.Fatalf("DefaultConfig.Validate() = %v", err)
	}
	// No warm-up at all is a valid configuration.
	c := DefaultConfig
	c.WarmupMin, c.WarmupMax = 0, 0
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate() without warm-up = %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want []string // every message must appear
	}{
		{"wi-min above wi-max", func(c *Config) { c.WarmupMin, c.WarmupMax = 5, 3 }, []string{"WarmupMin 5 > WarmupMax 3"}},
		{"negative wi-min", func(c *Config) { c.WarmupMin = -1 }, []string{"WarmupMin -1 < 0"}},
		{"negative wi-max", func(c *Config) { c.WarmupMin, c.WarmupMax = 0, -2 }, []string{"WarmupMax -2 < 0", "WarmupMin 0 > WarmupMax -2"}},
		{"no measurement", func(c *Config) { c.Measure = 0 }, []string{"Measure 0 < 1"}},
		{"no forks", func(c *Config) { c.ForksMin = 0 }, []string{"ForksMin 0 < 1"}},
		{"f-min above f-max", func(c *Config) { c.ForksMin, c.ForksMax = 6, 5 }, []string{"ForksMin 6 > ForksMax 5"}},
		{"zero iteration time", func(c *Config) { c.IterTime = 0 }, []string{"IterTime 0s <= 0"}},
		{"negative iteration time", func(c *Config) { c.IterTime = -time.Second }, []string{"IterTime -1s <= 0"}},
		{"all reported", func(c *Config) { c.Measure, c.IterTime = 0, 0 }, []string{"Measure 0 < 1", "IterTime 0s <= 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig
			tt.edit(&c)
			err := c.Validate()
			if err == nil {
				t.Fatalf("Validate(%+v) = nil, want %q", c, tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate(%+v) = %q, want it to contain %q", c, err, w)
				}
			}
		})
	}
}

func TestNew(t *testing.T) {
	for _, name := range Names {
		c, err := New(name, DefaultOptions)
		if err != nil {
			t.Fatalf("New(%q, DefaultOptions) error %v", name, err)
		}
		if c.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, c.Name())
		}
	}
	_, err := New("cov", DefaultOptions)
	if err == nil || !strings.Contains(err.Error(), `unknown criterion "cov"`) ||
		!strings.Contains(err.Error(), "cv, rciw, kld, static") {
		t.Fatalf("New(\"cov\") error = %v, want it to name the criterion and list cv, rciw, kld, static", err)
	}
}

func TestNewBadOptions(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"cv", func(o *Options) { o.Window = 1 }, "Window 1 < 2"},
		{"cv", func(o *Options) { o.CVThreshold = 0 }, "CVThreshold 0"},
		{"rciw", func(o *Options) { o.RCIWThreshold = -0.03 }, "RCIWThreshold -0.03"},
		{"rciw", func(o *Options) { o.Level = 1 }, "Level 1"},
		{"rciw", func(o *Options) { o.Replicates = 0 }, "Replicates 0 < 1"},
		{"kld", func(o *Options) { o.KLDThreshold = 1 }, "KLDThreshold 1"},
		{"kld", func(o *Options) { o.KLDPoints = 1 }, "KLDPoints 1 < 2"},
		{"kld", func(o *Options) { o.Window = 0 }, "Window 0 < 2"},
	}
	for _, tt := range tests {
		o := DefaultOptions
		tt.edit(&o)
		_, err := New(tt.name, o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q, %+v) error = %v, want %q", tt.name, o, err, tt.want)
		}
	}
	// Static uses no option, so none can be wrong for it.
	if _, err := New("static", Options{}); err != nil {
		t.Errorf("New(\"static\", Options{}) error = %v", err)
	}
}
