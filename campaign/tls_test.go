package campaign

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base32"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// pki is a throwaway certificate authority with a server certificate for
// 127.0.0.1 and a client certificate, as PEM files in a directory.
type pki struct {
	ca, serverCert, serverKey, clientCert, clientKey string
}

func newPKI(t *testing.T) pki {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	now := time.Now()
	caKey := key()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kalah test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	leaf := func(serial int64, name string, usage x509.ExtKeyUsage) (string, string) {
		k := key()
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return write(name+".pem", "CERTIFICATE", der), write(name+"-key.pem", "EC PRIVATE KEY", kder)
	}
	p := pki{ca: write("ca.pem", "CERTIFICATE", caDER)}
	p.serverCert, p.serverKey = leaf(2, "server", x509.ExtKeyUsageServerAuth)
	p.clientCert, p.clientKey = leaf(3, "client", x509.ExtKeyUsageClientAuth)
	return p
}

// startTLSServer runs an embedded JetStream server that requires TLS and
// a client certificate signed by the test CA.
func startTLSServer(t *testing.T, p pki) *Server {
	t.Helper()
	tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: p.serverCert, KeyFile: p.serverKey, CaFile: p.ca, Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := server.NewServer(&server.Options{ServerName: "kalah-tls", Host: "127.0.0.1", Port: server.RANDOM_PORT,
		JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true,
		TLS: true, TLSVerify: true, TLSConfig: tc, TLSTimeout: 2})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("TLS server did not start")
	}
	s := &Server{ns: ns}
	t.Cleanup(s.Shutdown)
	return s
}

// A campaign runs over mutual TLS with the client options of the
// commands; a client without its certificate, or that does not know the
// CA, is refused.
func TestCampaignOverTLS(t *testing.T) {
	p := newPKI(t)
	srv := startTLSServer(t, p)
	ctx := context.Background()
	good := ClientOptions{TLSCert: p.clientCert, TLSKey: p.clientKey, TLSCA: p.ca}
	opts, err := good.NATSOptions()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Connect(ctx, srv.URL(), 5*time.Second, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e := &env{t: t, srv: srv, c: c, opts: opts}
	_, stop := e.workers(1, nil)
	defer stop()
	pr := params(t, "tls", engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 3, "", engine.South)
	rec, err := e.coordinate(ctx, pr, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, pr, rec)
	for name, o := range map[string]ClientOptions{
		"no client certificate": {TLSCA: p.ca},
		"unknown CA":            {TLSCert: p.clientCert, TLSKey: p.clientKey},
		"plain":                 {},
	} {
		opts, err := o.NATSOptions()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Connect(ctx, srv.URL(), 0, opts...); !errors.Is(err, ErrUnreachable) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The files are checked once, before any connection; the credentials
// file's JWT is what the connection will send.
func TestClientOptions(t *testing.T) {
	p := newPKI(t)
	dir := t.TempDir()
	creds := filepath.Join(dir, "user.creds")
	const jwt = "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.e30.c2ln"
	seed := userSeed(t)
	block := func(jwt, seed string) []byte {
		return []byte("-----BEGIN NATS USER JWT-----\n" + jwt + "\n------END NATS USER JWT------\n\n" +
			"-----BEGIN USER NKEY SEED-----\n" + seed + "\n------END USER NKEY SEED------\n")
	}
	os.WriteFile(creds, block(jwt, seed), 0o600)
	badSeed := filepath.Join(dir, "bad-seed.creds")
	// One character of the key changed: a burst of at most 5 bits, which
	// the seed's CRC-16 always detects. (Overwriting the last two
	// characters, as before, left the seed valid about once in a thousand
	// runs: they can hold the same checksum bits or only padding.)
	bad := []byte(seed)
	bad[10] = map[bool]byte{true: 'B', false: 'A'}[bad[10] == 'A']
	os.WriteFile(badSeed, block(jwt, string(bad)), 0o600)
	garbage := filepath.Join(dir, "garbage.pem")
	os.WriteFile(garbage, []byte("not a certificate\n"), 0o600)
	opts, err := ClientOptions{Creds: creds, TLSCert: p.clientCert, TLSKey: p.clientKey, TLSCA: p.ca}.NATSOptions()
	if err != nil {
		t.Fatal(err)
	}
	var no nats.Options
	for _, f := range opts {
		if err := f(&no); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := no.UserJWT(); err != nil || got != jwt || no.SignatureCB == nil {
		t.Errorf("credentials: %q %v", got, err)
	}
	if sig, err := no.SignatureCB([]byte("nonce")); err != nil || len(sig) != 64 {
		t.Errorf("signature: %x %v", sig, err)
	}
	if !no.Secure || no.TLSCertCB == nil || no.RootCAsCB == nil {
		t.Errorf("TLS not wired: secure %v", no.Secure)
	}
	if cert, err := no.TLSCertCB(); err != nil || cert.Leaf.Subject.CommonName != "client" {
		t.Errorf("client certificate: %v", err)
	}
	if opts, err := (ClientOptions{}).NATSOptions(); err != nil || len(opts) != 0 {
		t.Errorf("no options: %v %v", opts, err)
	}
	for name, o := range map[string]ClientOptions{
		"key":           {TLSCert: p.clientCert},
		"cert":          {TLSKey: p.clientKey},
		"missing CA":    {TLSCA: filepath.Join(dir, "none.pem")},
		"garbage CA":    {TLSCA: garbage},
		"swapped":       {TLSCert: p.clientKey, TLSKey: p.clientCert},
		"missing creds": {Creds: filepath.Join(dir, "none.creds")},
		"garbage creds": {Creds: garbage},
		"bad seed":      {Creds: badSeed},
	} {
		if _, err := o.NATSOptions(); !errors.Is(err, ErrClientOptions) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// userSeed makes an NKey user seed by its published encoding (base32 of
// two prefix bytes, a 32-byte ed25519 seed and the CRC-16/XMODEM of both,
// little-endian), with a bitwise CRC written here.
func userSeed(t *testing.T) string {
	t.Helper()
	const seedPrefix, userPrefix = 18 << 3, 20 << 3
	raw := []byte{seedPrefix | userPrefix>>5, (userPrefix & 31) << 3}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	raw = append(raw, key...)
	var crc uint16
	for _, b := range raw {
		crc ^= uint16(b) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	raw = append(raw, byte(crc), byte(crc>>8))
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(raw)
}
