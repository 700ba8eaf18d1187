package serve

import (
	"embed"
	"io/fs"
	"net/http"
)

// The page: plain HTML, CSS and JavaScript, embedded in the binary, so
// the server needs no network and no build step.
//
//go:embed assets
var assets embed.FS

func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err)
	}
	fsrv := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
		fsrv.ServeHTTP(w, r)
	})
}
