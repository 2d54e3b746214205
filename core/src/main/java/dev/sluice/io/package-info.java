/**
 * Stream adapters over pipe ends: {@link dev.sluice.io.PipeInputStream} and
 * {@link dev.sluice.io.PipeOutputStream}. The ends themselves are the NIO channel adapters.
 */
package dev.sluice.io;
