package campaign

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kalah-solver/kalah"
)

// Verify re-solves a sample of a campaign's answers on this machine
// ('kalah campaign verify'): each answer's claim is tested as a check
// unit tests it (check.go), with a local session.

// VerifiedUnit is one answer re-solved by Verify.
type VerifiedUnit struct {
	Key    string   `json:"key"`
	Worker Identity `json:"worker"`
	// Claim is the answer's claim on the unit's board ("value >= 3");
	// Local the local test's answer at CheckGamma, which agrees when it
	// falls on the claim's side.
	Claim      string  `json:"claim"`
	CheckGamma int     `json:"check_gamma"`
	Local      int     `json:"local"`
	Agrees     bool    `json:"agrees"`
	Nodes      int64   `json:"nodes"`
	Seconds    float64 `json:"seconds"`
}

// VerifyReport is what Verify found.
type VerifyReport struct {
	Campaign string `json:"campaign"`
	// Answered: the campaign's units with an answer of its signature in
	// the results bucket; Sampled: those re-solved.
	Answered  int            `json:"answered"`
	Sampled   int            `json:"sampled"`
	Agreed    int            `json:"agreed"`
	Disagreed int            `json:"disagreed"`
	Nodes     int64          `json:"nodes"`
	Seconds   float64        `json:"seconds"`
	Units     []VerifiedUnit `json:"units"`
}

// claimText says what the answer v to "value >= gamma" claims.
func claimText(v, gamma int) string {
	if v >= gamma {
		return "value >= " + strconv.Itoa(v)
	}
	return "value <= " + strconv.Itoa(v)
}

// Verify re-solves sample answers of the campaign name (0: all of them),
// chosen at random by seed, with k, a session of the campaign's rule and
// pits; each is passed to each (nil: none) as it is done.
func Verify(ctx context.Context, c *Conn, name string, k *kalah.Session, sample int, seed uint64, each func(VerifiedUnit)) (*VerifyReport, error) {
	p, err := LoadParams(ctx, c, name)
	if err != nil {
		return nil, err
	}
	r, _, err := p.root()
	if err != nil {
		return nil, err
	}
	kl, err := c.State.ListKeysFiltered(ctx, name+".unit.>")
	if err != nil {
		return nil, err
	}
	var keys []string
	for key := range kl.Keys() {
		keys = append(keys, strings.TrimPrefix(key, name+".unit."))
	}
	slices.Sort(keys)
	type answer struct {
		res   Result
		gamma int
		key   string
	}
	var answers []answer
	for _, key := range keys {
		e, err := c.Results.Get(ctx, key)
		if err != nil {
			continue
		}
		res, _, gamma, err := parseResult(e.Value(), r)
		if err != nil || p.mismatch(res.Rule, res.Build, res.EGDBSeeds) != "" {
			continue
		}
		answers = append(answers, answer{res, gamma, key})
	}
	rep := &VerifyReport{Campaign: name, Answered: len(answers), Units: []VerifiedUnit{}}
	rng := rand.New(rand.NewPCG(seed, 0x766572696679))
	rng.Shuffle(len(answers), func(i, j int) { answers[i], answers[j] = answers[j], answers[i] })
	if sample > 0 && sample < len(answers) {
		answers = answers[:sample]
	}
	slices.SortFunc(answers, func(a, b answer) int { return strings.Compare(a.key, b.key) })
	for _, a := range answers {
		_, b, _, _ := ParseKey(a.key)
		cg := checkGamma(a.res.Value, a.gamma)
		t0 := time.Now()
		v, nodes, err := k.NullWindow(ctx, b, cg)
		if err != nil {
			return rep, err
		}
		ch := crossCheck{orig: a.res, gamma: a.gamma, cgamma: cg}
		u := VerifiedUnit{Key: a.key, Worker: a.res.Identity(), Claim: claimText(a.res.Value, a.gamma), CheckGamma: cg, Local: v,
			Agrees: ch.agrees(v), Nodes: nodes, Seconds: round3(time.Since(t0).Seconds())}
		rep.Sampled++
		if u.Agrees {
			rep.Agreed++
		} else {
			rep.Disagreed++
		}
		rep.Nodes += nodes
		rep.Seconds = round3(rep.Seconds + u.Seconds)
		rep.Units = append(rep.Units, u)
		if each != nil {
			each(u)
		}
	}
	return rep, nil
}
