package dev.sluice.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The capabilities every test of a contract class needs: the class runs only over the pipes under test that
 * declare them all, and not at all (without a skipped entry per test) where none does. A class needs what it
 * and its superclasses require, together.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Requires {
    /** {@return the capabilities needed} */
    Capability[] value();
}
