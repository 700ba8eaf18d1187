// Package clustertest runs campaigns on a real NATS JetStream cluster
// whose nodes, coordinator and workers are separate hosts: Linux network
// namespaces joined by veth pairs on a bridge, each running the real
// nats-server and kalah binaries with its own data directory and log.
// Its tests (make cluster-test) need root and the ip command; elsewhere,
// and under -short, they skip and say why. The faults they inject (kill
// -9 of a node, a worker or the coordinator, a worker's link down, slow
// and lossy links through Shopify's toxiproxy, the whole cluster down)
// each end with the values of 'kalah solve' and the campaign's counters
// showing no unit lost and none counted twice.
//
// Addresses are 10.213.0.0/24 (and 10.214.0.0/16 between a worker and its
// proxy host) inside the namespaces the tests make; the bridge lives in a
// namespace of its own, so nothing is added to the host's network and no
// traffic leaves the namespaces.
package clustertest
