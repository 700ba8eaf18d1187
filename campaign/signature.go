package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/kalah-solver/kalah/results"
)

// One campaign, one build, one database depth.
//
// An exact value depends neither on the build nor on the endgame
// database, but a proof is only as good as what it can name: a campaign
// declares, when it is created, the build that computes it (BuildID of
// the coordinator's binary) and the depth of the endgame database every
// worker must use (-1: none); its rule is declared with its position.
// Every unit carries that signature, every answer the worker's own (its
// build, its session's rule and database depth), and:
//
//   - a worker that does not match a unit's signature does not solve it:
//     it hands the unit back (to a worker that matches), logs why once per
//     campaign, and leaves a note in the state bucket that 'kalah campaign
//     status' lists ("refused");
//   - the coordinator rejects an answer whose signature is not the
//     campaign's (logged, counted as results_mismatched, never in the
//     bucket), and queues its unit again;
//   - answers in the results bucket are reused (by the coordinator's table
//     and by a worker skipping an answered unit) only when their signature
//     is the campaign's.
//
// A build without VCS stamping (go build -buildvcs=false) is known only by
// its module version, "(devel)" for every local build, which does not
// tell two such builds apart; 'campaign start' says so when it declares
// one.

// BuildID names a binary's build: its VCS revision ("+dirty" when the tree
// was modified), or "version V" when it was built without VCS stamping.
func BuildID(p results.Provenance) string {
	if p.VCSRevision != "" {
		return p.VCSRevision
	}
	return "version " + p.Version
}

// CurrentBuild is the running binary's BuildID.
func CurrentBuild() string { return BuildID(results.Current()) }

// mismatch compares what an answer was computed with to what the
// campaign declares; "" when they match.
func (p Params) mismatch(rule, build string, egdbSeeds int) string {
	var d []string
	if rule != p.Rule {
		d = append(d, fmt.Sprintf("rule %s, campaign %s", rule, p.Rule))
	}
	if build != p.Build {
		d = append(d, fmt.Sprintf("build %q, campaign %q", build, p.Build))
	}
	if egdbSeeds != p.EGDBSeeds {
		d = append(d, fmt.Sprintf("endgame database of %s, campaign %s", depthName(egdbSeeds), depthName(p.EGDBSeeds)))
	}
	return strings.Join(d, "; ")
}

func depthName(s int) string {
	if s < 0 {
		return "none"
	}
	return fmt.Sprintf("%d seeds", s)
}

// Refusal is a worker's note that it cannot serve a campaign.
type Refusal struct {
	Worker string `json:"worker"`
	Reason string `json:"reason"`
	Time   string `json:"time"`
}

var keyUnsafe = regexp.MustCompile(`[^A-Za-z0-9_-]`)

func refusalKey(campaign, worker string) string {
	return campaign + ".refused." + keyUnsafe.ReplaceAllString(worker, "_")
}

// noteRefusal writes a worker's refusal to the state bucket.
func noteRefusal(ctx context.Context, c *Conn, campaign, worker, reason string) error {
	data, _ := json.Marshal(Refusal{Worker: worker, Reason: reason, Time: time.Now().UTC().Format(time.RFC3339)})
	_, err := c.State.Put(ctx, refusalKey(campaign, worker), data)
	return err
}

// loadRefusals reads the refusals of a campaign, by worker.
func loadRefusals(ctx context.Context, c *Conn, campaign string) []Refusal {
	kl, err := c.State.ListKeysFiltered(ctx, campaign+".refused.>")
	if err != nil {
		return nil
	}
	var out []Refusal
	for k := range kl.Keys() {
		e, err := c.State.Get(ctx, k)
		if err != nil {
			continue
		}
		var r Refusal
		if json.Unmarshal(e.Value(), &r) == nil {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Worker < out[j].Worker })
	return out
}
