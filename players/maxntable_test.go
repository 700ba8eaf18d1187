package players

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestRankerDense: the key is a bijection of the pit vectors of at most S
// seeds (times the mover) onto [0, keys).
func TestRankerDense(t *testing.T) {
	for _, c := range [][3]int{{2, 1, 5}, {3, 1, 4}, {2, 2, 6}, {3, 2, 3}, {4, 1, 7}, {2, 3, 4}} {
		r := Variant{Players: c[0], Pits: c[1]}
		rk, err := newRanker(r, c[2])
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, rk.keys)
		p := c[0] * c[1]
		var walk func(i, left int, b Board)
		n := 0
		walk = func(i, left int, b Board) {
			if i == p {
				for mover := 0; mover < c[0]; mover++ {
					b.ToMove = uint8(mover)
					k := rk.key(b)
					if k >= rk.keys || seen[k] {
						t.Fatalf("%v S=%d: key %d of %v out of range or repeated (keys %d)", r, c[2], k, b, rk.keys)
					}
					seen[k] = true
					n++
				}
				return
			}
			for v := 0; v <= left; v++ {
				b2 := b
				b2.Pits[i/c[1]] |= uint64(v) << (8 * uint(i%c[1]))
				walk(i+1, left-v, b2)
			}
		}
		walk(0, c[2], Board{})
		if uint64(n) != rk.keys {
			t.Errorf("%v S=%d: %d vectors, keys %d", r, c[2], n, rk.keys)
		}
	}
	// 4-player Kalah(4,3) keys fit; 4 players of 8 pits and 100 seeds do not.
	if rk, err := newRanker(Variant{Players: 4, Pits: 4}, 48); err != nil || rk.bits != 51 {
		t.Errorf("4-player Kalah(4,3): %d bits, %v", rk.bits, err)
	}
	if _, err := newRanker(Variant{Players: 4, Pits: 8}, 100); !errors.Is(err, ErrTooBig) {
		t.Errorf("4 players, 8 pits, 100 seeds: %v, want ErrTooBig", err)
	}
}

// TestMaxnTable: random keys in tables of several widths keep exactly what
// was put, miss what was not, and report full instead of losing entries.
func TestMaxnTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		k, m, seeds int
		bytes       int64
	}{{3, 4, 36, 1 << 16}, {4, 4, 48, 1 << 18}, {4, 3, 36, 1 << 20}, {3, 2, 6, 1 << 20}, {2, 1, 2, 64}} {
		rk, err := newRanker(Variant{Players: c.k, Pits: c.m}, c.seeds)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := newMaxnTable(rk, c.seeds, c.bytes)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Bytes() > max(c.bytes, 96)*2/3+16 {
			t.Errorf("%+v: table of %d bytes", c, tb.Bytes())
		}
		want := map[uint64]uint64{}
		vmax := uint64(1) << (uint(c.k-1) * tb.w)
		full := false
		for range 3 * tb.final {
			key := rng.Uint64N(rk.keys)
			if _, ok := want[key]; ok {
				continue
			}
			v := rng.Uint64N(vmax)
			if !tb.insert(key, v) {
				full = true
				break
			}
			want[key] = v
		}
		if tb.n != tb.final {
			t.Errorf("%+v: %d slots at the end, %d final", c, tb.n, tb.final)
		}
		if !full && tb.n < rk.keys {
			t.Errorf("%+v: %d slots took %d keys without filling", c, tb.n, len(want))
		}
		if full && len(want) < tb.limit*9/10 {
			t.Errorf("%+v: full at %d of %d slots", c, len(want), tb.n)
		}
		for key, v := range want {
			if got, ok := tb.lookup(key); !ok || got != v {
				t.Fatalf("%+v: key %d: %d %v, want %d", c, key, got, ok, v)
			}
		}
		misses := 0
		for range 10000 {
			key := rng.Uint64N(rk.keys)
			if _, ok := want[key]; ok {
				continue
			}
			if _, ok := tb.lookup(key); ok {
				t.Fatalf("%+v: key %d found, never put", c, key)
			}
			misses++
		}
		t.Logf("%+v: %d slots of %d bits, %d keys, longest distance %d, %d misses checked", c, tb.n, tb.eb, len(want), tb.maxDist-1, misses)
	}
}

func TestGainsPacking(t *testing.T) {
	rk, _ := newRanker(Variant{Players: 4, Pits: 3}, 36)
	tb, _ := newMaxnTable(rk, 36, 1<<20)
	g := uint32(5) | 0<<8 | 17<<16 | 14<<24
	if got := tb.unpackGains(tb.packGains(g), 36); got != g {
		t.Errorf("gains %08x back as %08x", g, got)
	}
}

// TestMaxnTableFull: a max^n search in a table too small stops with
// ErrTooBig.
func TestMaxnTableFull(t *testing.T) {
	r := Variant{Players: 3, Pits: 3, Target: TargetNext}
	p, _ := r.StartPosition(2)
	s, err := NewSolver(r, MaxN, p.Board.Seeds(), Options{MaxNBytes: 1 << 12})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(t.Context(), p); !errors.Is(err, ErrTooBig) {
		t.Errorf("error %v, want ErrTooBig", err)
	}
}
