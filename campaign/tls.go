package campaign

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
)

// ClientOptions say how a coordinator or a worker proves who it is to a
// NATS server and how it checks the server: nats.go's own options, checked
// here once so that a bad file is bad input at the start, not a failed
// connection.
type ClientOptions struct {
	Creds   string // user credentials file (the user's JWT and NKey seed), nats.UserCredentials
	TLSCert string // client certificate (PEM), with TLSKey: nats.ClientCert
	TLSKey  string
	TLSCA   string // CA certificates (PEM) the server's certificate must chain to: nats.RootCAs
}

// ErrClientOptions wraps every problem with the files of ClientOptions.
var ErrClientOptions = errors.New("NATS client options")

// NATSOptions returns the nats.go options, after loading every file once:
// the certificate and its key must both be given, and every file must be
// readable and of its kind.
func (o ClientOptions) NATSOptions() ([]nats.Option, error) {
	var opts []nats.Option
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, fmt.Errorf("%w: a client certificate needs its key (--nats-tls-cert and --nats-tls-key go together)", ErrClientOptions)
	}
	if o.TLSCert != "" {
		opts = append(opts, nats.ClientCert(o.TLSCert, o.TLSKey))
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(o.TLSCA))
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	// The TLS options load their files when applied; the credentials are
	// read when the connection asks for them, so they are read here once.
	var no nats.Options
	for _, f := range opts {
		if err := f(&no); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrClientOptions, err)
		}
	}
	if no.UserJWT != nil {
		jwt, err := no.UserJWT()
		if err == nil && strings.Count(jwt, ".") != 2 {
			err = errors.New("no user JWT in it")
		}
		if err == nil {
			_, err = no.SignatureCB([]byte("kalah"))
		}
		if err != nil {
			return nil, fmt.Errorf("%w: credentials %s: %v", ErrClientOptions, o.Creds, err)
		}
	}
	return opts, nil
}
