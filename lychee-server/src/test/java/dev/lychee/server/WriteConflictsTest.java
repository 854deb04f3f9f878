package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Re-sent turns on a running server: the same text is an idempotent no-op, another text is a 409 that stores nothing. */
@Timeout(60)
class WriteConflictsTest {
  static final String FIRST = "{\"turns\":[{\"speaker\":\"Ada\",\"text\":\"I moved to Lyon.\",\"index\":0},"
      + "{\"speaker\":\"Ben\",\"text\":\"Nice city.\",\"index\":1}]}";

  @Test
  void aChangedTextAtAStoredIndexIsAConflictAndNothingOfTheCallIsStored() {
    try (TestServer s = TestServer.start()) {
      String path = "/v1/namespaces/alice/sessions/c1/turns";
      Http.Res first = s.http.post(path, TestServer.ALICE_WRITE, FIRST);
      assertThat(first.status()).isEqualTo(202);
      assertThat(first.json().get("stored").asInt()).isEqualTo(2);
      assertThat(first.json().has("segments_queued")).isTrue();
      // the same turns again: stored once
      assertThat(s.http.post(path, TestServer.ALICE_WRITE, FIRST).json().get("stored").asInt()).isZero();
      // index 1 with another text, plus a new turn 2: refused as a whole
      Http.Res conflict = s.http.post(path, TestServer.ALICE_WRITE,
          "{\"turns\":[{\"speaker\":\"Ben\",\"text\":\"Awful city.\",\"index\":1},{\"speaker\":\"Ada\",\"text\":\"Why?\",\"index\":2}]}");
      RestRoutesTest.assertProblem(conflict, 409, "turn-conflict", null);
      assertThat(conflict.body()).doesNotContain(TestServer.ALICE_WRITE);
      Http.Res turns = s.http.get(path, TestServer.ALICE_READ);
      assertThat(turns.json().get("items").findValuesAsText("text")).containsExactly("I moved to Lyon.", "Nice city.");
    }
  }
}
