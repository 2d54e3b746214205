/**
 * JDK Flight Recorder events of the in-process engine ({@code dev.sluice.PipeWait}, {@code PipeWakeup},
 * {@code PipeCapacityChange}, {@code PipeBroken}), all disabled unless a recording enables them.
 * Internal: not exported from the module.
 */
package dev.sluice.internal.jfr;
