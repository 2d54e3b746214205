package dev.sluice.testing;

import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.ParameterDeclarations;

/**
 * The pipes under test: whatever the test class path's one {@link PipeFactory.Source} supplies (in the core
 * module, {@link InProcessPipes}; in the kernel module, kernel pipes). Every contract class runs once per
 * factory that has the capabilities its {@link Requires} names ({@link PipeContract}); the property tests
 * draw a factory per try ({@link #underTest(Capability...)}).
 */
public final class TestPipes implements ArgumentsProvider {
    private static final List<PipeFactory> UNDER_TEST = load();

    /** Creates the provider (JUnit does, for {@link PipeContract}). */
    public TestPipes() {
    }

    private static List<PipeFactory> load() {
        List<PipeFactory.Source> sources = ServiceLoader.load(PipeFactory.Source.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        if (sources.size() != 1) {
            throw new IllegalStateException("the test class path must name exactly one "
                    + PipeFactory.Source.class.getName() + " in META-INF/services, found " + sources);
        }
        List<PipeFactory> pipes = sources.get(0).pipes();
        if (pipes.isEmpty()) {
            throw new IllegalStateException(sources.get(0) + " supplies no pipes");
        }
        return pipes;
    }

    /**
     * {@return every pipe under test that has all of {@code needs}, the reference configuration first}
     *
     * @param needs the capabilities asked for
     */
    public static List<PipeFactory> underTest(Capability... needs) {
        return UNDER_TEST.stream().filter(f -> Arrays.stream(needs).allMatch(f::has)).toList();
    }

    /** {@return the reference configuration: the first pipe under test, the one stress tests run at full size} */
    public static PipeFactory reference() {
        return UNDER_TEST.get(0);
    }

    @Override
    public Stream<? extends Arguments> provideArguments(ParameterDeclarations parameters, ExtensionContext context) {
        return underTest(needs(context.getRequiredTestClass())).stream().map(Arguments::of);
    }

    /** {@return what a class and its superclasses {@link Requires}, together} */
    static Capability[] needs(Class<?> testClass) {
        java.util.Set<Capability> all = java.util.EnumSet.noneOf(Capability.class);
        for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
            Requires r = c.getDeclaredAnnotation(Requires.class);
            if (r != null) {
                all.addAll(Arrays.asList(r.value()));
            }
        }
        return all.toArray(Capability[]::new);
    }
}
