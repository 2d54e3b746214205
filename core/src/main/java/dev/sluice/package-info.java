/**
 * Sluice: pipes with Linux pipe semantics, in process.
 *
 * <p>Start at {@link dev.sluice.Pipe}: {@code Pipe.open()} gives a {@link dev.sluice.ReadEnd} and a
 * {@link dev.sluice.WriteEnd}, which are NIO scattering and gathering channels; {@code asInputStream()}
 * and {@code asOutputStream()} adapt them to streams. {@link dev.sluice.PipeOptions} holds what
 * {@code pipe2(2)} flags and the pipe sysctls control. {@link dev.sluice.Splice} moves and shares pages between
 * pipes without copying them ({@code splice}, {@code tee}, {@code vmsplice}) and hands them to byte channels.
 */
package dev.sluice;
