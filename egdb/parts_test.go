package egdb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

var rules6e = engine.Variant{Pits: 6, Rule: engine.EmptyCapture}

// What building in parts rests on: from every position of sub-slice a of
// slice s, a move that banks nothing passes the turn to a child in
// sub-slice s-a of slice s, and every other move ends the game or leads
// to a lower slice.
func TestPairsClosed(t *testing.T) {
	for _, m := range []int{1, 2, 3, 4, 6} {
		maxSeeds := 12
		if m == 6 {
			maxSeeds = 9
		}
		x, err := NewIndex(m, maxSeeds)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range engine.AllRules {
			rules := engine.Variant{Pits: m, Rule: c}
			same := 0
			for s := 2; s <= maxSeeds; s++ {
				cur := x.Cursor(s, 0, x.Size(s))
				for cur.Next() {
					b := engine.Board{Own: cur.Own, Opp: cur.Opp}
					a := engine.LaneSum(cur.Own)
					for mv := b.Moves(); mv != 0; mv &= mv - 1 {
						i := 0
						for mv>>i&1 == 0 {
							i++
						}
						child, res := rules.Sow(b, i)
						k := int(child.OwnStore)
						switch {
						case res&engine.ResOver != 0:
						case k == 0:
							r, s2 := x.Rank(child.Opp, child.Own)
							if sp := x.subSlice(s, s-a); res&engine.ResExtra != 0 || s2 != s || r < sp.lo || r >= sp.hi {
								t.Fatalf("%v slice %d rank %d pit %d: banks nothing, child rank %d of slice %d (extra %v), want sub-slice %d, ranks %d..%d",
									rules, s, cur.Rank, i, r, s2, res&engine.ResExtra != 0, s-a, sp.lo, sp.hi-1)
							}
							same++
						default:
							if _, s2 := x.Rank(child.Own, child.Opp); s2 != s-k || s2 >= s {
								t.Fatalf("%v slice %d rank %d pit %d: banks %d, child in slice %d", rules, s, cur.Rank, i, k, s2)
							}
						}
					}
				}
			}
			if m > 1 && same == 0 {
				t.Errorf("%v: no move banks nothing", rules)
			}
		}
	}
}

// The parts of a slice cover it: every sub-slice once, in no part larger
// than the largest pair.
func TestPlanParts(t *testing.T) {
	for _, m := range []int{2, 4, 6} {
		x, _ := NewIndex(m, 36)
		for s := 2; s <= 36; s++ {
			var got []int
			var largest, pair int64
			for a := 1; 2*a <= s; a++ {
				pair = max(pair, pairSize(x, s, a))
			}
			var covered int64
			for _, as := range planParts(x, s) {
				got = append(got, movers(s, as)...)
				n := pairsSize(x, s, as)
				largest = max(largest, n)
				for _, sp := range spansOf(x, s, as) {
					covered += sp.hi - sp.lo
				}
				if covered > x.Size(s) {
					break
				}
			}
			slices.Sort(got)
			want := make([]int, s-1)
			for i := range want {
				want[i] = i + 1
			}
			if !slices.Equal(got, want) || largest != pair || covered != x.Size(s) {
				t.Errorf("m=%d s=%d: parts cover sub-slices %v (%d of %d positions), largest %d, largest pair %d", m, s, got, covered, x.Size(s), largest, pair)
			}
		}
	}
	x, _ := NewIndex(6, 36)
	if n := largestPart(x, 34); n != 1369447002 {
		t.Errorf("six pits, slice 34: largest part %d positions", n)
	}
}

// writeSliceFrom, packing a batch of lines at a time, writes the file
// writeSlice writes of the same entries, whatever the batch.
func TestWriteSliceFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	for _, n := range []int{0, 1, 126, 1000, 1 << dirShift, 3<<dirShift + 77} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(10 + rng.IntN(16))
			if rng.IntN(300) == 0 {
				data[i] = byte(rng.IntN(40))
			}
		}
		read := func(p []byte, r int64) error { copy(p, data[r:]); return nil }
		for _, enc := range encodings {
			want := filepath.Join(dir, "want")
			t0 := byteTable(data)
			if enc == EncodingPacked {
				t0 = pack(data)
			}
			if err := writeSlice(want, rules4, 40, t0); err != nil {
				t.Fatal(err)
			}
			wb, _ := os.ReadFile(want)
			for _, batch := range []int64{1, 3, 520, writeBatch} {
				got := filepath.Join(dir, "got")
				if err := writeSliceFrom(got, rules4, 40, int64(n), enc, batch, read); err != nil {
					t.Fatal(err)
				}
				if gb, _ := os.ReadFile(got); !bytes.Equal(gb, wb) {
					t.Errorf("n=%d %s batch %d: the file differs from writeSlice's", n, EncodingName(enc), batch)
				}
			}
		}
	}
}

// sliceFiles returns the bytes of the files s0..maxSeeds of rules in dir
// and fails on any other file there.
func sliceFiles(t *testing.T, dir string, rules engine.Variant, maxSeeds int) [][]byte {
	t.Helper()
	var out [][]byte
	for s := 0; s <= maxSeeds; s++ {
		b, err := os.ReadFile(SlicePath(dir, rules, s))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	ents, _ := os.ReadDir(RuleDir(dir, rules))
	if len(ents) != maxSeeds+1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("%s holds %v, want s0..s%d.egdb", RuleDir(dir, rules), names, maxSeeds)
	}
	return out
}

// partsBuildTo builds rules to maxSeeds in a new directory and returns it
// and the reports.
func partsBuildTo(t *testing.T, ctx context.Context, dir string, rules engine.Variant, maxSeeds int, opts Options) ([]SliceReport, []PartReport, error) {
	t.Helper()
	var reps []SliceReport
	var parts []PartReport
	var mu sync.Mutex
	slice, part := opts.SliceDone, opts.PartDone
	opts.SliceDone = func(r SliceReport) {
		reps = append(reps, r)
		if slice != nil {
			slice(r)
		}
	}
	opts.PartDone = func(r PartReport) {
		mu.Lock()
		parts = append(parts, r)
		mu.Unlock()
		if part != nil {
			part(r)
		}
	}
	opts.Available = func() (int64, bool) { return 0, false }
	db, err := BuildDir(ctx, dir, rules, maxSeeds, opts)
	if err == nil {
		err = db.Close()
	}
	return reps, parts, err
}

// Slices built in parts are the files of slices built whole, byte for
// byte: parts chosen by a memory budget that a whole slice exceeds, and
// (one case) every slice in parts.
func TestPartsMatchWhole(t *testing.T) {
	cases := []struct {
		rules    engine.Variant
		maxSeeds int
		enc      int
	}{
		{rules4, 14, EncodingPacked},
		{rules4e, 13, EncodingPacked},
		{rules4, 12, EncodingGainByte},
		{engine.Variant{Pits: 6}, 11, EncodingPacked},
		{rules6e, 11, EncodingPacked},
	}
	defer func(old int64) { partsMin = old }(partsMin)
	for _, c := range cases {
		name := fmt.Sprintf("%v %s to %d", c.rules, EncodingName(c.enc), c.maxSeeds)
		x, _ := NewIndex(c.rules.Pits, c.maxSeeds)
		partsMin = 1 << 40
		whole := t.TempDir()
		reps, _, err := partsBuildTo(t, context.Background(), whole, c.rules, c.maxSeeds, Options{Encoding: c.enc})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if r.Parts != 0 {
				t.Fatalf("%s: slice %d built in parts", name, r.Seeds)
			}
		}
		want := sliceFiles(t, whole, c.rules, c.maxSeeds)

		budget := t.TempDir()
		limit := PartsMemory(x, c.maxSeeds, c.enc)
		reps, parts, err := partsBuildTo(t, context.Background(), budget, c.rules, c.maxSeeds, Options{Encoding: c.enc, MaxMemory: limit})
		if err != nil {
			t.Fatal(err)
		}
		var inParts []int
		for _, r := range reps {
			if r.Parts > 0 {
				inParts = append(inParts, r.Seeds)
			}
			if (r.Parts > 0) != (SliceMemory(r.Positions, c.enc) > limit) {
				t.Errorf("%s, budget %d: slice %d (whole %d bytes) built in %d parts", name, limit, r.Seeds, SliceMemory(r.Positions, c.enc), r.Parts)
			}
		}
		if len(inParts) < 2 || inParts[0] < 3 {
			t.Errorf("%s, budget %d: slices %v built in parts", name, limit, inParts)
		}
		n := 0
		for _, p := range parts {
			if !p.Built || !slices.Contains(inParts, p.Seeds) {
				t.Errorf("%s: part report %+v", name, p)
			}
			if p.Seeds == c.maxSeeds {
				n++
			}
		}
		if want := len(planParts(x, c.maxSeeds)); n != want || n < 3 {
			t.Errorf("%s: slice %d built in %d parts, want %d (at least 3)", name, c.maxSeeds, n, want)
		}
		for s, b := range sliceFiles(t, budget, c.rules, c.maxSeeds) {
			if !bytes.Equal(b, want[s]) {
				t.Errorf("%s, budget %d: slice %d differs from the slice built whole", name, limit, s)
			}
		}

		if c.rules != rules4e {
			continue
		}
		partsMin = 0
		all := t.TempDir()
		reps, _, err = partsBuildTo(t, context.Background(), all, c.rules, c.maxSeeds, Options{Encoding: c.enc, Threads: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if (r.Parts > 0) != (r.Positions > 0) {
				t.Errorf("%s, every slice in parts: slice %d in %d parts", name, r.Seeds, r.Parts)
			}
		}
		for s, b := range sliceFiles(t, all, c.rules, c.maxSeeds) {
			if !bytes.Equal(b, want[s]) {
				t.Errorf("%s, every slice in parts: slice %d differs from the slice built whole", name, s)
			}
		}
	}
}

// interruptParts builds rules6e to top in dir, cancelled once stopAfter parts of slice top are built; it returns the
// movers of the parts built.
func interruptParts(t *testing.T, dir string, top, stopAfter int) []int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var done []int
	_, _, err := partsBuildTo(t, ctx, dir, rules6e, top, Options{Threads: 2, PartDone: func(r PartReport) {
		if r.Seeds == top && r.Built {
			done = append(done, r.Movers...)
			if stopAfter--; stopAfter == 0 {
				cancel()
			}
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	return done
}

// recorded is the sub-slices the progress file of slice s records.
func recorded(t *testing.T, dir string, rules engine.Variant, s int) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RuleDir(dir, rules), progressName(s)))
	if err != nil {
		t.Fatal(err)
	}
	var p partsProgress
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	var as []int
	for _, d := range p.Done {
		as = append(as, d.Mover)
	}
	return movers(s, as)
}

// A build stopped between parts or inside one keeps the parts it
// finished, recorded in the progress file, and the next build builds
// only the others, to the same files as a build in one go.
func TestPartsResume(t *testing.T) {
	defer func(old int64) { partsMin = old }(partsMin)
	const top = 11
	x, _ := NewIndex(6, top)
	partsMin = x.Size(top) // the top slice in parts
	plan := planParts(x, top)
	want := t.TempDir()
	if _, _, err := partsBuildTo(t, context.Background(), want, rules6e, top, Options{}); err != nil {
		t.Fatal(err)
	}
	wantFiles := sliceFiles(t, want, rules6e, top)

	dir := t.TempDir()
	done := interruptParts(t, dir, top, 2)
	slices.Sort(done)
	if got := recorded(t, dir, rules6e, top); !slices.Equal(got, done) || len(done) == 0 {
		t.Fatalf("progress file records sub-slices %v, the parts built were %v", got, done)
	}
	if fileExists(SlicePath(dir, rules6e, top)) {
		t.Fatal("the interrupted slice has a file")
	}

	// Stopped inside the next part: it is not recorded.
	ctx, cancel := context.WithCancel(context.Background())
	var chunks atomic.Int64
	_, parts, err := partsBuildTo(t, ctx, dir, rules6e, top, Options{Threads: 2, Progress: func(n int64) {
		if n == chunk && chunks.Add(1) == 1 {
			cancel()
		}
	}})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for _, p := range parts {
		if p.Built {
			t.Errorf("a part was finished after the cancel: %+v", p)
		}
	}
	if got := recorded(t, dir, rules6e, top); !slices.Equal(got, done) {
		t.Fatalf("after a stop inside a part, the progress file records %v, want %v", got, done)
	}

	reps, parts, err := partsBuildTo(t, context.Background(), dir, rules6e, top, Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	built, kept := 0, 0
	for _, p := range parts {
		switch {
		case p.Seeds != top:
			t.Errorf("slice %d rebuilt: %+v", p.Seeds, p)
		case p.Built:
			built++
			for _, b := range p.Movers {
				if slices.Contains(done, b) {
					t.Errorf("sub-slice %d built again", b)
				}
			}
		default:
			kept++
		}
	}
	if built != len(plan)-2 || kept != 2 {
		t.Errorf("resumed build: %d parts built, %d kept, want %d and 2", built, kept, len(plan)-2)
	}
	if r := reps[len(reps)-1]; r.Seeds != top || !r.Built || r.Parts != len(plan) {
		t.Errorf("report of the resumed slice: %+v", r)
	}
	for s, b := range sliceFiles(t, dir, rules6e, top) {
		if !bytes.Equal(b, wantFiles[s]) {
			t.Errorf("slice %d differs from the build in one go", s)
		}
	}
}

// A damaged or mismatched progress file or byte file stops the build with
// an error naming the file; it is left as it was, and nothing is written.
func TestPartsDamageRefused(t *testing.T) {
	defer func(old int64) { partsMin = old }(partsMin)
	const top = 10
	x, _ := NewIndex(6, top)
	partsMin = x.Size(top)
	template := t.TempDir()
	interruptParts(t, template, top, 2)
	rd := RuleDir(template, rules6e)
	progress, byteFile := progressName(top), bytesName(top)
	recordedA := func(dir string) int { // a recorded pair's a
		return recorded(t, dir, rules6e, top)[0]
	}
	edit := func(name string, f func([]byte) []byte) func(dir string) {
		return func(dir string) {
			path := filepath.Join(RuleDir(dir, rules6e), name)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name   string
		damage func(dir string)
		file   string
		want   error
	}{
		{"entry flipped in a recorded part", func(dir string) {
			sp := x.subSlice(top, recordedA(dir))
			edit(byteFile, func(b []byte) []byte { b[(sp.lo+sp.hi)/2] ^= 1; return b })(dir)
		}, byteFile, ErrCorrupt},
		{"byte file truncated", edit(byteFile, func(b []byte) []byte { return b[:len(b)-1] }), byteFile, ErrCorrupt},
		{"byte file missing", func(dir string) { os.Remove(filepath.Join(RuleDir(dir, rules6e), byteFile)) }, progress, ErrCorrupt},
		{"progress file cut short", edit(progress, func(b []byte) []byte { return b[:len(b)/2] }), progress, ErrCorrupt},
		{"progress file of another slice", edit(progress, func(b []byte) []byte {
			return bytes.Replace(b, []byte(fmt.Sprintf(`"seeds": %d`, top)), []byte(`"seeds": 9`), 1)
		}), progress, ErrMismatch},
		{"progress file of another format", edit(progress, func(b []byte) []byte {
			return bytes.Replace(b, []byte(partsFormat), []byte("kalah-egdb-parts 2"), 1)
		}), progress, ErrMismatch},
		{"checksum changed", edit(progress, func(b []byte) []byte {
			i := bytes.Index(b, []byte(`"xxh64": "`)) + len(`"xxh64": "`)
			if b[i] == '0' {
				b[i] = '1'
			} else {
				b[i] = '0'
			}
			return b
		}), byteFile, ErrCorrupt},
		{"pair recorded twice", edit(progress, func(b []byte) []byte {
			var p partsProgress
			json.Unmarshal(b, &p)
			p.Done = append(p.Done, p.Done[0])
			out, _ := json.Marshal(p)
			return out
		}), progress, ErrCorrupt},
	}
	for _, c := range cases {
		dir := t.TempDir()
		os.MkdirAll(RuleDir(dir, rules6e), 0o755)
		ents, _ := os.ReadDir(rd)
		for _, e := range ents {
			b, _ := os.ReadFile(filepath.Join(rd, e.Name()))
			os.WriteFile(filepath.Join(RuleDir(dir, rules6e), e.Name()), b, 0o644)
		}
		c.damage(dir)
		before := snapshot(t, RuleDir(dir, rules6e))
		_, parts, err := partsBuildTo(t, context.Background(), dir, rules6e, top, Options{})
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), filepath.Join(RuleDir(dir, rules6e), c.file)) {
			t.Errorf("%s: err = %v, want %v naming %s", c.name, err, c.want, c.file)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
		if len(parts) != 0 {
			t.Errorf("%s: %d parts reported", c.name, len(parts))
		}
		if after := snapshot(t, RuleDir(dir, rules6e)); !maps.Equal(before, after) {
			t.Errorf("%s: the directory changed", c.name)
		}
	}
}

// snapshot maps each file of dir to its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(b)
	}
	return out
}

// A slice whose largest part does not fit the budget stops the build
// with ErrMemory saying so; a budget that fits only the parts builds them.
func TestPartsMemory(t *testing.T) {
	x, _ := NewIndex(6, 12)
	part := PartsMemory(x, 12, EncodingPacked)
	if whole := SliceMemory(x.Size(12), EncodingPacked); part >= whole/2 {
		t.Errorf("slice 12: %d bytes in parts, %d whole", part, whole)
	}
	dir := t.TempDir()
	_, _, err := partsBuildTo(t, context.Background(), dir, engine.Variant{Pits: 6}, 12, Options{MaxMemory: part - 1})
	if !errors.Is(err, ErrMemory) {
		t.Fatalf("err = %v, want ErrMemory", err)
	}
	for _, want := range []string{"slice 12 ", "built in parts (the largest, ", "--max-memory", "slices 0..11 are kept", "--max-seeds 11"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	reps, _, err := partsBuildTo(t, context.Background(), dir, engine.Variant{Pits: 6}, 12, Options{MaxMemory: part})
	if err != nil {
		t.Fatal(err)
	}
	if r := reps[12]; r.Parts == 0 || !r.Built {
		t.Errorf("slice 12 not built in parts: %+v", r)
	}
}
