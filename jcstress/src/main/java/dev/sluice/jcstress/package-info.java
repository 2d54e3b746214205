/**
 * jcstress tests of Sluice's races. Run the quick tier with {@code mvn -pl jcstress -am verify}; a longer
 * one with {@code java -jar jcstress/target/jcstress.jar -m default}.
 */
package dev.sluice.jcstress;
