package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void storesRecallsAndRefusesStrangers() {
    try (TestServer s = TestServer.start()) {
      Http.Res add = s.http.post("/v1/namespaces/alice/sessions/s1/turns", TestServer.ALICE_WRITE,
          "{\"turns\":[{\"speaker\":\"Nadia\",\"text\":\"I went to a choir rehearsal yesterday.\",\"index\":0}],\"session_date\":\"2023-05-08T13:56\",\"flush\":true}");
      assertThat(add.status()).as(add.body()).isEqualTo(202);
      assertThat(add.json().get("stored").asInt()).isEqualTo(1);
      Http.Res again = s.http.post("/v1/namespaces/alice/sessions/s1/turns", TestServer.ALICE_WRITE,
          "{\"turns\":[{\"speaker\":\"Nadia\",\"text\":\"I went to a choir rehearsal yesterday.\",\"index\":0}]}");
      assertThat(again.json().get("stored").asInt()).isZero();
      Http.Res recall = s.http.post("/v1/namespaces/alice/recall", TestServer.ALICE_READ, "{\"question\":\"When did Nadia go to the choir rehearsal?\"}");
      assertThat(recall.status()).as(recall.body()).isEqualTo(200);
      assertThat(recall.json().get("evidence").toString()).contains("choir rehearsal");
      Http.Res bob = s.http.post("/v1/namespaces/alice/recall", TestServer.BOB_WRITE, "{\"question\":\"x?\"}");
      assertThat(bob.status()).isEqualTo(403);
      assertThat(bob.contentType()).startsWith("application/problem+json");
      assertThat(s.http.get("/v1/namespaces/alice/status", null).status()).isEqualTo(401);
      assertThat(s.http.get("/nope", null).code()).isEqualTo("not-found");
    }
  }
}
