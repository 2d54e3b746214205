/**
 * A peer in a child JVM, for measuring pipes between two JVMs: the parent side ({@link dev.sluice.crossjvm.Peer})
 * and the child's {@code main} ({@link dev.sluice.crossjvm.PeerMain}), shared by the JMH benchmarks and the lab so
 * that both measure the same child. The child echoes what it reads, or reads, checks and counts a stream
 * ({@link dev.sluice.crossjvm.Role}), over one of four transports ({@link dev.sluice.crossjvm.Transport}); it
 * holds the read end of a lifeline pipe from its parent and exits when that reaches end-of-stream, so it never
 * outlives the parent.
 */
package dev.sluice.crossjvm;
