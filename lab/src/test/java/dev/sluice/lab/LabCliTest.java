package dev.sluice.lab;

import dev.sluice.PipeOptions;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.targets.SluiceTarget;
import dev.sluice.policy.WaitDiscipline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line: list, a tiny run, report, and bad arguments. */
class LabCliTest {
    record Outcome(int code, String out, String err) {
    }

    static Outcome lab(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lab.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void listShowsWorkloadsParametersAndTargets() {
        Outcome o = lab("list");
        assertThat(o.code()).isZero();
        assertThat(o.out()).contains("hackbench", "pingpong", "jobserver", "nonblock", "pipebench", "pipen", "tee",
                "--groups", "--datasize", "jdk-piped", "okio", "nio", "kernel");
        // The kernel module is on the lab's class path, so its target is available (no "n/a" line).
        assertThat(o.out()).doesNotContain("n/a: kernel module not built yet");
    }

    @Test
    void tinyRunWritesJsonAndHtmlAndReportReadsIt(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        Path html = dir.resolve("r.html");
        Outcome o = lab("run", "pipen", "--target", "sluice,nio,okio", "--size", "4096", "--bytes", "256k",
                "--reps", "2", "--warmup", "0", "--quiet", "--json", json.toString(), "--html", html.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("pipen: MB/s (MB/s), higher is better", "value[pct imp vs nio](CV)", "sluice", "okio");
        Results r = Results.read(json);
        assertThat(r.runs()).hasSize(3).allMatch(Results.Run::ok);
        assertThat(r.runs().get(0).reps()).hasSize(2);
        assertThat(Files.readString(html)).contains("<svg");

        Path html2 = dir.resolve("again.html");
        Outcome rep = lab("report", json.toString(), "--html", html2.toString());
        assertThat(rep.code()).isZero();
        assertThat(rep.out()).contains("pipen: MB/s");
        assertThat(Files.exists(html2)).isTrue();
    }

    @Test
    void compareQuickPrintsBothTablesAndNamesWhatCannotRun() {
        Outcome o = lab("compare", "--quick", "--workload", "nonblock,jobserver", "--target", "sluice,nio,okio,kernel",
                "--reps", "1", "--warmup", "0", "--quiet");
        assertThat(o.code()).as(o.err()).isZero();
        // With the kernel module on the class path, the kernel pipe is the baseline column.
        assertThat(o.out()).contains("nonblock: seconds (s), lower is better; value[pct imp vs kernel](CV)",
                "nonblock: context switches per run, voluntary/involuntary", "jobserver: seconds (s)",
                "okio n/a: okio.Pipe has no nonblocking mode", "counters - platform sluice: waits r/w");
        assertThat(o.out()).as("the kernel target runs").doesNotContain("kernel n/a").contains("kernel");
        // the baseline column comes first and shows no improvement over itself
        assertThat(o.out()).containsPattern("- platform +[0-9.]+\\[  0\\.00%\\]");
    }

    @Test
    void policiesExpandIntoSluiceVariants() {
        Outcome o = lab("run", "pingpong", "--loops", "200", "--policy", "half-empty,full-and-freed", "--lock", "spin",
                "--reps", "1", "--warmup", "0", "--quiet", "--threads", "virtual");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("sluice[half-empty,spin]", "sluice[spin]", "virtual");
    }

    @Test
    void everySubcommandHasHelpListingItsOptions() {
        java.util.Set<String> subcommands = new picocli.CommandLine(new Lab()).getSubcommands().keySet();
        assertThat(subcommands).contains("list", "run", "compare", "report");
        for (String sub : subcommands) {
            for (String flag : List.of("--help", "-h")) {
                Outcome o = lab(sub, flag);
                assertThat(o.code()).as(sub + " " + flag + ": " + o.err()).isZero();
                assertThat(o.err()).as(sub + " " + flag).isEmpty();
                assertThat(o.out()).as(sub + " " + flag).contains("Usage: lab " + sub).contains("-h, --help");
            }
        }
        assertThat(lab("run", "--help").out()).contains("WORKLOAD", "--reps", "--policy", "--wait", "--baseline",
                "Workload parameters", "hackbench  --groups --fds --loops --datasize", "tee        --records");
        assertThat(lab("compare", "--help").out()).contains("--workload", "--reps", "--quick", "--html");
        assertThat(lab("report", "--help").out()).contains("RESULTS.json", "--html");
    }

    @Test
    void runTakesSeveralWorkloadsAndGivesEachItsOwnTable(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        Outcome o = lab("run", "pipen,tee", "--target", "sluice,nio", "--bytes", "256k", "--records", "4096",
                "--size", "4096", "--reps", "1", "--warmup", "0", "--quiet", "--json", json.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("pipen: MB/s (MB/s), higher is better", "tee: MB/s (MB/s), higher is better");
        Results r = Results.read(json);
        assertThat(r.runs()).extracting(Results.Run::workload).containsExactly("pipen", "pipen", "tee", "tee");
        assertThat(r.runs().get(0).params()).containsEntry("bytes", 256L * 1024).containsEntry("size", 4096L);
        assertThat(r.runs().get(2).params()).containsEntry("records", 4096L).doesNotContainKey("bytes");
    }

    @Test
    void workloadOptionsGoToTheWorkloadsThatHaveThem() {
        var ws = List.of(dev.sluice.lab.workload.Workloads.byName("pipen"), dev.sluice.lab.workload.Workloads.byName("nonblock"));
        var values = Lab.params(ws, false, List.of("--size", "512", "--loops=7"));
        assertThat(values.get(0)).containsEntry("size", List.of(512L)).doesNotContainKey("loops");
        assertThat(values.get(1)).containsEntry("size", List.of(512L)).containsEntry("loops", List.of(7L));
        assertThat(Lab.params(ws, true, List.of()).get(0).get("bytes")).isEqualTo(List.of(128L << 20));
    }

    @Test
    void waitDisciplinesComeFromCoreNotFromAList() {
        List<String> all = java.util.Arrays.stream(WaitDiscipline.values()).map(WaitDiscipline::alias).toList();
        assertThat(lab("list").out()).contains("--wait " + String.join(",", all));
        // the help wraps at 80 columns, so compare with the line breaks and indents folded to single spaces
        assertThat(lab("run", "--help").out().replaceAll("\\s+", " "))
                .contains("Sluice wait disciplines: " + String.join(", ", all) + ", or all");
        Outcome o = lab("run", "pingpong", "--loops", "200", "--wait", "all", "--reps", "1", "--warmup", "0", "--quiet");
        assertThat(o.code()).as(o.err()).isZero();
        String header = o.out().lines().filter(l -> l.trim().startsWith("case")).findFirst().orElseThrow();
        for (WaitDiscipline d : WaitDiscipline.values()) {
            String id = SluiceTarget.of(PipeOptions.DEFAULT_WAKE_POLICY, d, PipeOptions.DEFAULT_LOCK_STRATEGY, false).id();
            assertThat(header.split(" +")).as(header).contains(id);
        }
    }

    @Test
    void badArgumentsGiveAMessageAndNonZeroExitWithoutStackTrace() {
        assertBad(lab("run", "nosuch"), "unknown workload 'nosuch'");
        assertBad(lab("run", "hackbench", "--grops", "2"), "unknown option --grops for hackbench");
        assertBad(lab("run", "hackbench", "--groups", "two"), "--groups needs a non-negative number");
        assertBad(lab("run", "pipen", "--target", "pipe9"), "unknown target 'pipe9'");
        assertBad(lab("run", "pipen", "--policy", "sometimes"), "sometimes names no wake policy");
        assertBad(lab("run", "pipen", "--threads", "green"), "threads must be platform or virtual");
        assertBad(lab("run", "pipen", "--reps", "0"), "reps must be at least 1");
        assertBad(lab("compare", "--baseline", "nope"), "baseline 'nope' is not one of the targets");
        assertBad(lab("frobnicate"), "Unmatched argument");
        assertBad(lab("run", "pipen,nosuch"), "unknown workload 'nosuch'");
        assertBad(lab("run", ","), "no workload named; choose from hackbench");
        assertBad(lab("run", "pipen,tee", "--groups", "2"), "unknown option --groups for pipen, tee; their parameters are "
                + "--size, --bytes, --records");
        Outcome missing = lab("report", "/nonexistent/r.json");
        assertThat(missing.code()).isNotZero();
        assertThat(missing.err()).contains("lab:").doesNotContain("\tat ");
    }

    private static void assertBad(Outcome o, String message) {
        assertThat(o.code()).as(o.err()).isEqualTo(Lab.USAGE);
        assertThat(o.err()).contains(message).doesNotContain("\tat ").doesNotContain("Exception");
    }
}
