package dev.lychee.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.DateRange;
import dev.lychee.api.ProviderException;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.Role;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LlmPlannerTest {
  /** Replies with a fixed text and records the requests. */
  static final class Scripted implements ChatModel {
    final String reply;
    final List<ChatRequest> requests = new ArrayList<>();

    Scripted(String reply) {
      this.reply = reply;
    }

    @Override
    public ChatResult chat(ChatRequest request) {
      requests.add(request);
      if (reply == null) {
        throw new ProviderException("http://local", 503, "scripted failure", null);
      }
      return new ChatResult(reply, new TokenUsage(120, 40), "scripted");
    }

    @Override
    public String modelId() {
      return "scripted";
    }
  }

  private static final Question Q =
      new Question("ns", "When did Dana visit Rome?", 15, LocalDateTime.of(2023, 9, 1, 10, 0));

  @Test
  void parsesAValidPlan() {
    Scripted chat = new Scripted("""
        {"reason": "date of a trip", "question_type": "temporal",
         "semantic_queries": ["Dana visit Rome", "Dana trip to Rome"],
         "temporal_filter": {"since": "2023-05-01", "until": "2023-06-30"},
         "evidence_target": "date of Dana's Rome trip", "evidence_constraints": ["Dana"],
         "constraints": [{"kind": "entity", "value": "Dana"}, {"kind": "weird", "value": "x"}],
         "evidence_routes": [{"route_id": "r1", "evidence_goal": "Dana in Rome",
            "queries": ["Dana Rome", "Dana flew to Rome"], "constraints": [], "temporal_filter": {}}]}
        """);
    RecallPlan p = new LlmPlanner(chat).plan(Q);
    assertThat(p.type()).isEqualTo(QuestionType.TEMPORAL);
    assertThat(p.reason()).isEqualTo("date of a trip");
    assertThat(p.temporalFilter()).isEqualTo(new DateRange(LocalDate.of(2023, 5, 1), LocalDate.of(2023, 6, 30)));
    assertThat(p.routes()).hasSize(1);
    RecallRoute r = p.routes().get(0);
    assertThat(r.goal()).isEqualTo("Dana in Rome");
    assertThat(r.queries()).containsExactly("Dana Rome", "Dana flew to Rome");
    assertThat(r.temporalFilter()).isEqualTo(p.temporalFilter()); // empty route filter -> plan's
    assertThat(p.usage()).isEqualTo(new TokenUsage(120, 40));
    // one call, JSON mode, the time basis in the system message, the question in the user message
    assertThat(chat.requests).hasSize(1);
    ChatRequest req = chat.requests.get(0);
    assertThat(req.jsonMode()).isTrue();
    assertThat(req.messages().get(0).role()).isEqualTo(Role.SYSTEM);
    assertThat(req.messages().get(0).content()).contains("2023-09-01");
    assertThat(req.messages().get(1).content()).contains("When did Dana visit Rome?");
  }

  @Test
  void acceptsFencedJsonWithProseAround() {
    Scripted chat = new Scripted("Here is the plan:\n```json\n{\"question_type\": \"single\", "
        + "\"semantic_queries\": [\"Dana Rome\"]}\n```\nDone.");
    RecallPlan p = new LlmPlanner(chat).plan(Q);
    assertThat(p.type()).isEqualTo(QuestionType.SINGLE);
    // no routes: one default route from the question and the semantic queries
    assertThat(p.routes()).hasSize(1);
    assertThat(p.routes().get(0).id()).isEqualTo("r1");
    assertThat(p.routes().get(0).goal()).isEqualTo(Q.text());
    assertThat(p.routes().get(0).queries()).containsExactly(Q.text(), "Dana Rome");
  }

  @Test
  void garbageFallsBackToTheSingleRoutePlan() {
    RecallPlan p = new LlmPlanner(new Scripted("I cannot help with that.")).plan(Q);
    assertThat(p.type()).isEqualTo(QuestionType.SINGLE);
    assertThat(p.routes()).containsExactly(RecallRoute.simple("r1", Q.text()));
    assertThat(p.usage()).isEqualTo(new TokenUsage(120, 40)); // the failed call still cost tokens
  }

  @Test
  void providerFailureFallsBackToTheGivenPlanner() {
    RecallPlan p = new LlmPlanner(new Scripted(null), new RuleBasedPlanner()).plan(Q);
    assertThat(p.type()).isEqualTo(QuestionType.TEMPORAL);
    assertThat(p.reason()).startsWith("rules");
  }

  @Test
  void unknownTypeBecomesSingle() {
    RecallPlan p = new LlmPlanner(new Scripted("{\"question_type\": \"philosophical\"}")).plan(Q);
    assertThat(p.type()).isEqualTo(QuestionType.SINGLE);
  }

  @Test
  void capsAreApplied() {
    String queries = IntStream.range(0, 30).mapToObj(i -> "\"q" + i + "\"").collect(Collectors.joining(","));
    String route = "{\"queries\": [" + queries + "]}";
    String routes = IntStream.range(0, 12).mapToObj(i -> route).collect(Collectors.joining(","));
    String constraints = IntStream.range(0, 20).mapToObj(i -> "{\"kind\": \"entity\", \"value\": \"c" + i + "\"}")
        .collect(Collectors.joining(","));
    RecallPlan p = new LlmPlanner(new Scripted("{\"question_type\": \"aggregate\", \"semantic_queries\": ["
        + queries + "], \"constraints\": [" + constraints + "], \"evidence_routes\": [" + routes + "]}")).plan(Q);
    assertThat(p.routes()).hasSize(8);
    assertThat(p.routes()).allMatch(r -> r.queries().size() == 8);
    assertThat(p.routes()).extracting(RecallRoute::id).containsExactly("r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8");
    assertThat(p.routes()).allMatch(r -> r.goal().equals(Q.text()));
  }

  @Test
  void capsSemanticQueriesAndConstraintsOfTheDefaultRoute() {
    String queries = IntStream.range(0, 30).mapToObj(i -> "\"q" + i + "\"").collect(Collectors.joining(","));
    String constraints = IntStream.range(0, 20).mapToObj(i -> "{\"kind\": \"entity\", \"value\": \"c" + i + "\"}")
        .collect(Collectors.joining(","));
    RecallPlan p = new LlmPlanner(new Scripted("{\"semantic_queries\": [" + queries + "], \"constraints\": ["
        + constraints + "]}")).plan(Q);
    assertThat(p.routes().get(0).constraints()).hasSize(12);
    assertThat(p.routes().get(0).queries()).hasSize(8);
  }

  @Test
  void unparseableFilterDatesAreDropped() {
    RecallPlan p = new LlmPlanner(new Scripted(
        "{\"temporal_filter\": {\"since\": \"last summer\", \"until\": \"2023-13-45\"}}")).plan(Q);
    assertThat(p.temporalFilter()).isNull();
    RecallPlan q = new LlmPlanner(new Scripted("{\"temporal_filter\": {\"until\": \"8 May 2023\"}}")).plan(Q);
    assertThat(q.temporalFilter()).isEqualTo(new DateRange(null, LocalDate.of(2023, 5, 8)));
  }
}
