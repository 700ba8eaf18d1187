package serve_test

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http/httptest"
	"os"

	"github.com/kalah-solver/kalah/serve"
)

// Ask the explorer's JSON API for a position's exact values, through the
// server's HTTP handler: GET /api/solve answers with the fields of 'kalah
// solve --json'. The second request of the same position is answered from
// the cache (a temporary directory here).
func ExampleServer() {
	dir, err := os.MkdirTemp("", "serve-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s := serve.New(serve.Options{CacheDir: dir, NoEGDB: true, Threads: 1, TableSize: 16 << 20, NoPonder: true})
	defer s.Close()
	for range 2 {
		req := httptest.NewRequest("GET", "/api/solve?pits=4&seeds=3&rule=empty-capture&position=0,3,0,2,5,1,1,0,4,0&to_move=north", nil)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		var reply struct {
			Value     int      `json:"value"`
			Result    string   `json:"result"`
			Best      []string `json:"best"`
			FromCache bool     `json:"from_cache"`
			Moves     []struct {
				Move  string `json:"move"`
				Value int    `json:"value"`
			} `json:"moves"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
			log.Fatal(rec.Code, err)
		}
		fmt.Println(rec.Code, "value", reply.Value, reply.Result, "best", reply.Best, "moves", reply.Moves, "from the cache", reply.FromCache)
	}
	// Output:
	// 200 value 4 W best [B] moves [{A -2} {B 4} {D -4}] from the cache false
	// 200 value 4 W best [B] moves [{A -2} {B 4} {D -4}] from the cache true
}
