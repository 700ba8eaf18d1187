package egdb

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// ConvertReport says what Convert did to one slice file.
type ConvertReport struct {
	Seeds      int     `json:"seeds"`
	Positions  int64   `json:"positions"`
	From       string  `json:"from"` // the file's encoding before: "byte" or "packed"
	To         string  `json:"to"`
	Converted  bool    `json:"converted"`   // false: the file was in the encoding already
	FileBytes  int64   `json:"file_bytes"`  // the file's size after
	BytesSaved int64   `json:"bytes_saved"` // before minus after (negative when it grew)
	Exceptions int64   `json:"exceptions"`  // packed: entries in the exception list
	Seconds    float64 `json:"seconds"`
}

// Convert rewrites every slice file of rules in dir into the encoding enc
// (EncodingPacked or EncodingGainByte), one slice at a time: the file is
// loaded with every check of Open, re-encoded, decoded again and compared
// with the original entry by entry, and written under a temporary name
// then renamed over the old one. Files already in enc are left alone, so
// an interrupted conversion (ctx is checked between slices) resumes where
// it stopped; a mix of encodings opens like any database. done, when set,
// is called after each file.
func Convert(ctx context.Context, dir string, rules engine.Variant, enc int, done func(ConvertReport)) error {
	if err := rules.Validate(); err != nil {
		return err
	}
	if enc != EncodingPacked && enc != EncodingGainByte {
		return fmt.Errorf("unknown encoding %d", enc)
	}
	ss, err := Slices(dir, rules)
	if err != nil {
		return err
	}
	if len(ss) == 0 {
		return fmt.Errorf("no endgame database for %v in %s", rules, RuleDir(dir, rules))
	}
	x, err := NewIndex(rules.Pits, ss[len(ss)-1])
	if err != nil {
		return err
	}
	for _, s := range ss {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep, err := convertSlice(dir, rules, x, s, enc)
		if err != nil {
			return err
		}
		if done != nil {
			done(rep)
		}
	}
	return nil
}

// convertSlice converts the file of slice s.
func convertSlice(dir string, rules engine.Variant, x *Index, s, enc int) (ConvertReport, error) {
	start := time.Now()
	path := SlicePath(dir, rules, s)
	rep := ConvertReport{Seeds: s, Positions: x.Size(s), To: EncodingName(enc)}
	before, err := os.Stat(path)
	if err != nil {
		return rep, err
	}
	old, release, err := loadSlice(path, rules, s, x.Size(s))
	if err != nil {
		return rep, err
	}
	defer release()
	rep.From = EncodingName(EncodingGainByte)
	if old.packed {
		rep.From = EncodingName(EncodingPacked)
	}
	rep.FileBytes, rep.Exceptions = before.Size(), old.exceptions()
	if old.packed == (enc == EncodingPacked) {
		rep.Seconds = time.Since(start).Seconds()
		return rep, nil
	}
	data := old.bytes()
	t := byteTable(data)
	if enc == EncodingPacked {
		t = pack(data)
		if string(t.bytes()) != string(data) {
			return rep, fmt.Errorf("%s: packing does not round-trip (a bug): file left unchanged", path)
		}
	}
	if err := writeSlice(path, rules, s, t); err != nil {
		return rep, err
	}
	rep.Converted, rep.Exceptions = true, t.exceptions()
	rep.FileBytes = HeaderSize + t.size()
	rep.BytesSaved = before.Size() - rep.FileBytes
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}
