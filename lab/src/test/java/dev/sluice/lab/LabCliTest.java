package dev.sluice.lab;

import dev.sluice.lab.command.WorkloadArgs;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.targets.SluiceTarget;
import dev.sluice.lab.targets.SluiceVariant;
import dev.sluice.lab.workload.Workloads;
import dev.sluice.policy.WaitDiscipline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line: list, tiny runs, report, and every subcommand's help. Bad arguments: BadArgumentsTest. */
public class LabCliTest {
    /**
     * @param code the exit code
     * @param out  stdout
     * @param err  stderr
     */
    public record Outcome(int code, String out, String err) {
    }

    /**
     * @param args the command line
     * @return what the lab did with it
     */
    public static Outcome lab(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lab.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void listShowsWorkloadsParametersRangesAndTargets() {
        Outcome o = lab("list");
        assertThat(o.code()).isZero();
        assertThat(o.out()).contains("hackbench", "pingpong", "jobserver", "nonblock", "pipebench", "pipen", "tee",
                "--groups", "--datasize", "jdk-piped", "okio", "nio", "kernel", "1..1m bytes (k/m/g allowed)",
                "--reader-wake on-empty,every-write", "--page-memory heap,direct", "--pool-pages");
        assertThat(o.out()).doesNotContain("[n/a:");
        assertThat(o.out().lines()).as("within 120 columns")
                .allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(120));
    }

    @Test
    void tinyRunAddsTheBaselineAndWritesEveryFormat(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        Path html = dir.resolve("r.html");
        Path jmh = dir.resolve("jmh.json");
        Outcome o = lab("run", "pipen", "--target", "sluice,okio", "--size", "4096", "--bytes", "256k",
                "--reps", "2", "--warmup", "0", "--quiet", "--json", json.toString(), "--html", html.toString(),
                "--jmh-json", jmh.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.err()).as("--quiet").isEmpty();
        assertThat(o.out()).contains("pipen: MB/s, higher is better", "×vs kernel", "sluice", "okio", "Summary:");
        assertThat(o.out().lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(120));
        Results r = Results.read(json);
        assertThat(r.runs()).extracting(Results.Run::target).as("the baseline came first, unasked")
                .containsExactly("kernel", "sluice", "okio");
        assertThat(r.runs()).allMatch(Results.Run::ok);
        assertThat(r.runs()).flatMap(Results.Run::reps).as("the CPU distance, measured before each repetition")
                .allMatch(rep -> rep.metrics().get(Results.CPU_DISTANCE) > 0);
        assertThat(o.out()).contains("cpus: CPU distance before each run");
        assertThat(r.sluice().version()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(r.jvm().args()).isNotNull();
        assertThat(Files.readString(html)).contains("<svg").contains("id=\"summary\"");
        assertThat(Files.readString(jmh)).contains("\"benchmark\" : \"dev.sluice.lab.pipen.run\"");

        Path html2 = dir.resolve("again.html");
        Outcome rep = lab("report", json.toString(), "--html", html2.toString(), "--quiet");
        assertThat(rep.code()).as(rep.err()).isZero();
        assertThat(rep.out()).contains("pipen: MB/s");
        assertThat(Files.exists(html2)).isTrue();
    }

    @Test
    void progressIsPlainLinesWithCountsWhenStderrIsNoTerminal() {
        Outcome o = lab("run", "pingpong", "--loops", "100", "--target", "sluice", "--reps", "1", "--warmup", "0");
        assertThat(o.code()).as(o.err()).isZero();
        List<String> lines = o.err().lines().toList();
        assertThat(lines).hasSize(2).allSatisfy(l -> assertThat(l).doesNotContain("\r").doesNotContain("\u001b"));
        assertThat(lines.get(0)).startsWith("lab: [1/2] rep 1/1  pingpong - on kernel (platform): ");
        assertThat(lines.get(1)).startsWith("lab: [2/2] rep 1/1  pingpong - on sluice (platform): ");
    }

    @Test
    void compareQuickPrintsTablesConclusionsAndNamesWhatCannotRun() {
        Outcome o = lab("compare", "--quick", "--workload", "nonblock,jobserver", "--target", "sluice,nio,okio,kernel",
                "--reps", "1", "--warmup", "0", "--quiet");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("nonblock: time in s, lower is better; median of 1 reps, ×vs kernel",
                "jobserver: time in s", "okio n/a: okio.Pipe has no nonblocking mode", "  → nonblock: ",
                "  → jobserver: ", "Summary: ");
        assertThat(o.out().lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(120));
    }

    /** The guard beside BadArgumentsTest's /dev/full: the write probe refuses a device that refuses, not every one. */
    @Test
    void aDeviceThatTakesWritesIsAcceptedAsAReportFile() {
        Outcome o = lab("run", "pingpong", "--loops", "100", "--target", "sluice", "--reps", "1", "--warmup", "0",
                "--quiet", "--json", "/dev/null", "--html", "/dev/null");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("pingpong");
    }

    @Test
    void everySluiceOptionMakesItsOwnVariant() {
        Outcome o = lab("run", "pingpong", "--loops", "200", "--policy", "half-empty", "--reader-wake", "every-write",
                "--page-memory", "direct", "--pool-pages", "0,2", "--capacity", "128k", "--reps", "1", "--warmup",
                "0", "--quiet", "--threads", "virtual");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("sluice[half-empty,every-write,direct,pool=0,cap=131072]",
                "sluice[half-empty,every-write,direct,pool=2,cap=131072]", "virtual threads");
    }

    @Test
    void everySubcommandHasHelpListingItsOptions() {
        java.util.Set<String> subcommands = new picocli.CommandLine(new Lab()).getSubcommands().keySet();
        assertThat(subcommands).containsExactlyInAnyOrder("list", "run", "compare", "report", "reproduce");
        for (String sub : subcommands) {
            for (String flag : List.of("--help", "-h")) {
                Outcome o = lab(sub, flag);
                assertThat(o.code()).as(sub + " " + flag + ": " + o.err()).isZero();
                assertThat(o.err()).as(sub + " " + flag).isEmpty();
                assertThat(o.out()).as(sub + " " + flag).contains("Usage: lab " + sub).contains("-h, --help");
            }
        }
        assertThat(lab("run", "--help").out()).contains("WORKLOAD", "--reps", "--policy", "--wait", "--baseline",
                "--jmh-json", "--wide", "Workload parameters", "hackbench  --groups --fds --loops --datasize",
                "tee        --records");
        assertThat(lab("reproduce", "--help").out()).contains("--quick", "--experiment", "--html");
    }

    /**
     * Picocli formats every description with {@code String.format}: a bare '%' (reproduce's "95 % interval")
     * fails that, and picocli then warns on stderr and prints the raw text.
     */
    @Test
    void everyDescriptionIsAValidFormat() {
        java.util.List<picocli.CommandLine.Model.CommandSpec> specs = new java.util.ArrayList<>();
        specs.add(new picocli.CommandLine(new Lab()).getCommandSpec());
        for (int i = 0; i < specs.size(); i++) {
            specs.get(i).subcommands().values().forEach(c -> specs.add(c.getCommandSpec()));
        }
        for (picocli.CommandLine.Model.CommandSpec spec : specs) {
            java.util.List<String> texts = new java.util.ArrayList<>(List.of(spec.usageMessage().description()));
            spec.options().forEach(o -> texts.addAll(List.of(o.description())));
            spec.positionalParameters().forEach(p -> texts.addAll(List.of(p.description())));
            for (String t : texts) {
                assertThat(t).as(spec.qualifiedName()).satisfies(x -> String.format(x));
            }
        }
    }

    @Test
    void workloadOptionsGoToTheWorkloadsThatHaveThem() {
        var ws = List.of(Workloads.byName("pipen"), Workloads.byName("nonblock"));
        var values = WorkloadArgs.parse(ws, false, List.of("--size", "512", "--loops=7"));
        assertThat(values.get(0)).containsEntry("size", List.of(512L)).doesNotContainKey("loops");
        assertThat(values.get(1)).containsEntry("size", List.of(512L)).containsEntry("loops", List.of(7L));
        assertThat(WorkloadArgs.parse(ws, true, List.of()).get(0).get("bytes")).isEqualTo(List.of(128L << 20));
    }

    @Test
    void waitDisciplinesComeFromCoreNotFromAList() {
        List<String> all = java.util.Arrays.stream(WaitDiscipline.values()).map(WaitDiscipline::alias).toList();
        assertThat(lab("list").out()).contains("--wait " + String.join(",", all));
        assertThat(lab("run", "--help").out().replaceAll("\\s+", " "))
                .contains("Sluice wait disciplines: " + String.join(", ", all) + ", or all");
        Outcome o = lab("run", "pingpong", "--loops", "200", "--wait", "all", "--reps", "1", "--warmup", "0",
                "--quiet");
        assertThat(o.code()).as(o.err()).isZero();
        for (WaitDiscipline d : WaitDiscipline.values()) {
            assertThat(o.out()).contains(SluiceTarget.of(SluiceVariant.defaults().withWaits(d)).id() + " ");
        }
    }
}
