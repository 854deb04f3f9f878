package dev.lychee.bench.qa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.core.conformance.ScriptedHttpServer;
import dev.lychee.core.testing.HashingEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A run killed (SIGKILL) after its first conversation resumes from the checkpoint and the cache:
 * the first conversation is not asked again, and the result equals an uninterrupted run's.
 */
class ResumeAfterKillTest {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void aKilledRunResumesWithoutResendingFinishedWork() throws Exception {
    Path data = Fixture.copyTo(dir);
    Path cache = dir.resolve("cache");
    try (ModelServer server = ModelServer.openAi()) {
      // the second conversation's speakers: its first request is held until the child is dead
      server.holdWhenContaining("Carol");
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), QaChildMain.class.getName(),
          "locomo", "--data", data.toString(), "--llm", "openai:qa-model", "--cache", cache.toString()));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile());
      pb.environment().putAll(server.environment());
      Process child = pb.start();
      try {
        assertThat(server.awaitHeld(90)).as("the child reached the second conversation").isTrue();
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      } finally {
        child.destroyForcibly();
      }
      int beforeResume = server.requests().size();
      Set<String> sentBefore = new HashSet<>();
      server.requests().subList(0, beforeResume).forEach(r -> sentBefore.add(r.body()));
      server.release();

      Path json = dir.resolve("resumed.json");
      int exit = new CommandLine(new EvalCommand(HashingEmbedder::new).environment(server.environment())).execute(
          "locomo", "--data", data.toString(), "--llm", "openai:qa-model", "--cache", cache.toString(),
          "--json", json.toString());
      assertThat(exit).isZero();
      List<ScriptedHttpServer.Request> resumed = server.requests().subList(beforeResume, server.requests().size());
      // nothing about the finished first conversation was asked again
      assertThat(resumed).noneMatch(r -> r.body().contains("Alice") || r.body().contains("Bob"));
      // nothing that got an answer before the kill was sent again (the held request never got one)
      long resent = resumed.stream().filter(r -> sentBefore.contains(r.body())).count();
      assertThat(resent).isLessThanOrEqualTo(1);
      JsonNode v = ModelServer.JSON.readTree(json.toFile()).path("variants").path("lychee");
      assertThat(v.path("conversations").asInt()).isEqualTo(2);
      assertThat(v.path("questions").asInt()).isEqualTo(Fixture.questions().size());
      assertThat(v.path("judge_accuracy").asDouble()).isEqualTo(Fixture.expectedAccuracy(Fixture.questions()));
      assertThat(Files.readString(dir.resolve("child.log"))).contains("conv-t1 done");
    }
  }
}
