package dev.lychee.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.DateRange;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RuleBasedPlannerTest {
  private final RuleBasedPlanner planner = new RuleBasedPlanner();

  private RecallPlan plan(String q) {
    return planner.plan(Question.of("ns", q));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "When did Dana start her new job?|TEMPORAL",
      "What year did Omar move to Lisbon?|TEMPORAL",
      "How long ago did Priya adopt the cat?|TEMPORAL",
      "How many marathons has Omar run?|AGGREGATE",
      "List the cities Priya visited.|AGGREGATE",
      "What are all the instruments Dana plays?|AGGREGATE",
      "What desserts has Priya baked?|AGGREGATE",
      "Which cities has Omar been to?|AGGREGATE",
      "What are Dana's favourite films?|AGGREGATE",
      "In what ways does Omar help his neighbours?|AGGREGATE",
      // plural heads written with a hyphen, slash or plus
      "What open-air festivals has Dana been to?|AGGREGATE",
      "What bands/singers has Omar seen live?|AGGREGATE",
      // the present perfect asks for everything up to now: gathered like a list
      "What has Omar painted?|AGGREGATE",
      "Where has Priya camped?|AGGREGATE",
      "Who has written to Dana?|AGGREGATE",
      "What sports have Omar and his brother tried?|AGGREGATE",
      // a plural head with a singular auxiliary (it agrees with the subject): still a list
      "What causes does Omar support?|AGGREGATE",
      "Which board games does Priya own?|AGGREGATE",
      "What kind of films does Dana enjoy?|AGGREGATE",
      "What emotions is Omar feeling about the move?|AGGREGATE",
      "What projects was Priya working on?|AGGREGATE",
      "What plans does Omar have after the move?|AGGREGATE",
      // a singular head keeps the single-fact plan, whatever the auxiliary
      "What book is Priya reading?|SINGLE",
      "Which city does Omar live in?|SINGLE",
      "What does Dana have for breakfast?|SINGLE",
      "What does Dana's necklace symbolise?|SINGLE",
      "What is Dana's address?|SINGLE",
      "Does Omar run more than Priya?|COMPARISON",
      "What do Dana and Omar both enjoy?|COMPARISON",
      "Should I take the train or fly to Berlin?|PERSONALIZED_ADVICE",
      "Can you recommend a book for Priya?|PERSONALIZED_ADVICE",
      "What did you say about the hotel last time?|PRIOR_ASSISTANT_RESPONSE",
      "Where does Dana work?|SINGLE",
      "What is Omar's favourite dish?|SINGLE"})
  void classifiesByWording(String question, QuestionType expected) {
    assertThat(plan(question).type()).isEqualTo(expected);
  }

  @Test
  void everyQueryKeepsTheNamedSpeaker() {
    RecallPlan p = plan("What did Priya research for her thesis?");
    assertThat(p.routes()).hasSize(1);
    RecallRoute r = p.routes().get(0);
    assertThat(r.queries()).hasSizeGreaterThan(2).allMatch(q -> q.contains("Priya"));
    assertThat(r.queries().get(0)).isEqualTo("What did Priya research for her thesis?");
    assertThat(r.queries()).contains("Priya research for her thesis");
    assertThat(r.queries()).contains("Priya research thesis");
    // a name with a single other word would match any short turn naming Priya: not a variant
    assertThat(r.queries()).doesNotContain("Priya thesis", "Priya research");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "What did Dana do on 8 May 2023?|2023-05-08|2023-05-08",
      "What did Dana do on May 8, 2023?|2023-05-08|2023-05-08",
      "Where was Omar in May 2023?|2023-05-01|2023-05-31",
      "What did Priya buy in 2022?|2022-01-01|2022-12-31",
      "What happened between 1 May 2023 and 3 June 2023?|2023-05-01|2023-06-03",
      "What happened on 2023-07-04?|2023-07-04|2023-07-04"})
  void explicitDatesBecomeFilters(String question, String since, String until) {
    DateRange f = plan(question).temporalFilter();
    assertThat(f).isEqualTo(new DateRange(LocalDate.parse(since), LocalDate.parse(until)));
    assertThat(plan(question).routes().get(0).temporalFilter()).isEqualTo(f);
  }

  @Test
  void openEndedRanges() {
    assertThat(plan("What did Omar do before June 2023?").temporalFilter())
        .isEqualTo(new DateRange(null, LocalDate.of(2023, 5, 31)));
    assertThat(plan("What has Omar done since 1 March 2023?").temporalFilter())
        .isEqualTo(new DateRange(LocalDate.of(2023, 3, 1), null));
    assertThat(plan("What did Omar do after May 2023?").temporalFilter())
        .isEqualTo(new DateRange(LocalDate.of(2023, 6, 1), null));
  }

  @Test
  void vagueOrInvalidTimeGivesNoFilter() {
    assertThat(plan("What did Dana do recently?").temporalFilter()).isNull();
    assertThat(plan("What did Dana do on 31 February 2023?").temporalFilter()).isNull();
  }

  @Test
  void comparisonsGetOneRoutePerPerson() {
    RecallPlan p = plan("Who has more pets, Dana or Omar?");
    assertThat(p.type()).isEqualTo(QuestionType.COMPARISON);
    assertThat(p.routes()).hasSize(2);
    assertThat(p.routes().get(0).queries()).allMatch(q -> q.contains("Dana") && !q.contains("Omar"));
    assertThat(p.routes().get(1).queries()).allMatch(q -> q.contains("Omar") && !q.contains("Dana"));
    assertThat(p.routes()).extracting(RecallRoute::id).containsExactly("r1", "r2");
  }

  @Test
  void listsOverSeveralPeopleGetOneRoutePerPerson() {
    RecallPlan p = plan("What sports do Dana and Omar play?");
    assertThat(p.routes()).hasSize(2);
    assertThat(p.routes().get(0).goal()).startsWith("Dana");
  }

  /**
   * A temporal question asking for a point in time searches with the question alone; other
   * temporal questions and every other type keep their focused variants (docs/defaults.md §4.15,
   * round 12).
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "When did Omar run the marathon in June 2023?|1",
      "When is Dana's sister visiting?|1",
      "What year did Omar move to Lisbon?|1",
      "Which month did Priya start the pottery class?|1",
      "In what year did Dana adopt the cat?|1",
      // a duration, a frequency or an order keeps the variants
      "How long did Priya live in Oslo?|n",
      "How often does Dana swim at the lake?|n",
      "What did Omar cook first at the new flat?|n",
      // not temporal
      "Where did Priya buy the blue bicycle?|n"})
  void pointInTimeQuestionsSearchWithTheQuestionAlone(String question, String queries) {
    java.util.List<String> q = plan(question).routes().get(0).queries();
    if (queries.equals("1")) {
      assertThat(plan(question).type()).isEqualTo(QuestionType.TEMPORAL);
      assertThat(q).containsExactly(question);
    } else {
      assertThat(q).hasSizeGreaterThan(1);
    }
  }

  @Test
  void monthsAndSentenceWordsAreNotNames() {
    assertThat(QuestionQueries.names("When did Dana travel to Paris in July?")).containsExactly("Dana", "Paris");
  }

  @Test
  void eachRuleCanBeSwitchedOff() {
    Question cmp = Question.of("ns", "Who has more pets, Dana or Omar?");
    Question dated = Question.of("ns", "What did Omar do on 20 June 2023?");
    RuleBasedPlanner bare = new RuleBasedPlanner(PlanRules.builder().perPersonRoutes(false).dateFilters(false)
        .queryVariants(false).build());
    assertThat(bare.plan(cmp).routes()).hasSize(1);
    assertThat(bare.plan(cmp).type()).isEqualTo(QuestionType.COMPARISON);
    assertThat(bare.plan(dated).temporalFilter()).isNull();
    assertThat(bare.plan(dated).routes().get(0).queries()).containsExactly(dated.text());
    assertThat(planner.plan(dated).routes().get(0).queries()).hasSizeGreaterThan(1);
  }

  @Test
  void configuredTypesGetTheSingleRoutePlan() {
    RuleBasedPlanner p = new RuleBasedPlanner(PlanRules.builder()
        .singleRouteTypes(java.util.Set.of(QuestionType.TEMPORAL)).build());
    RecallPlan when = p.plan(Question.of("ns", "When did Omar run the marathon in June 2023?"));
    assertThat(when.type()).isEqualTo(QuestionType.SINGLE);
    assertThat(when.routes()).hasSize(1);
    assertThat(when.routes().get(0).queries()).containsExactly("When did Omar run the marathon in June 2023?");
    assertThat(when.temporalFilter()).isNull();
    assertThat(p.plan(Question.of("ns", "Who has more pets, Dana or Omar?")).routes()).hasSize(2);
    assertThat(PlanRules.defaults().singleRouteTypes()).isNotNull();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanRules.builder().singleRouteTypes(null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("singleRouteTypes");
  }

  @Test
  void plainQueryTypesKeepTheirPlanButSearchWithTheQuestionAlone() {
    PlanRules rules = PlanRules.builder().plainQueryTypes(java.util.Set.of(QuestionType.TEMPORAL)).build();
    RuleBasedPlanner p = new RuleBasedPlanner(rules);
    RecallPlan when = p.plan(Question.of("ns", "When did Omar run the marathon in June 2023?"));
    assertThat(when.type()).isEqualTo(QuestionType.TEMPORAL); // still typed and filtered, unlike a single route
    assertThat(when.temporalFilter()).isNotNull();
    assertThat(when.routes()).hasSize(1);
    assertThat(when.routes().get(0).queries()).containsExactly("When did Omar run the marathon in June 2023?");
    // other types keep their variants
    RecallPlan what = p.plan(Question.of("ns", "What kind of pottery does Omar make with his sister?"));
    assertThat(what.routes().get(0).queries().size()).isGreaterThan(1);
    assertThat(rules.queryVariants(QuestionType.TEMPORAL)).isFalse();
    assertThat(rules.queryVariants(QuestionType.SINGLE)).isTrue();
    assertThat(rules.toBuilder().build().plainQueryTypes()).containsExactly(QuestionType.TEMPORAL);
    assertThat(PlanRules.builder().queryVariants(false).build().queryVariants(QuestionType.SINGLE)).isFalse();
    // the default: every type gets variants (plain temporal queries did not pay, docs/defaults.md §4.15)
    assertThat(PlanRules.defaults().plainQueryTypes()).isEmpty();
    assertThat(new RuleBasedPlanner().plan(Question.of("ns", "How long did Omar train for the marathon?"))
        .routes().get(0).queries().size()).isGreaterThan(1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanRules.builder().plainQueryTypes(null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("plainQueryTypes");
  }

  /**
   * A yes/no question asking for an inference ("Would Dana ...?", "Is it likely that ...?")
   * searches with the question alone, its type, filter and routes kept; a wh-question of the same
   * form and a yes/no question about a fact keep their variants (docs/defaults.md §4.15, round 15).
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "Would Dana enjoy a pottery class with her sister?|1",
      "Could Omar be allergic to the neighbour's cats?|1",
      "Is it likely that Priya owns a bicycle for her commute?|1",
      "Would Dana find a museum more fun or a theme park?|1",
      // a wh-question of the form keeps its variants
      "What might Priya's degree be in, given her lab work?|n",
      "Which hiking trail would Omar choose for the weekend?|n",
      // a yes/no question about a stated fact keeps its variants
      "Did Dana finish the pottery class with her sister?|n",
      "Does Omar still live near the harbour market?|n"})
  void yesNoSuppositionsSearchWithTheQuestionAlone(String question, String queries) {
    RecallPlan p = plan(question);
    assertThat(p.routes()).hasSize(1);
    if (queries.equals("1")) {
      assertThat(p.routes().get(0).queries()).containsExactly(question);
    } else {
      assertThat(p.routes().get(0).queries()).hasSizeGreaterThan(1);
    }
  }

  @Test
  void hypotheticalRuleSettings() {
    String would = "Would Dana find a museum more fun or a theme park?";
    String might = "What might Priya's degree be in, given her lab work?";
    assertThat(PlanRules.defaults().hypothetical()).isEqualTo(PlanRules.Hypothetical.YES_NO_QUESTION_ONLY);
    // the type is kept under the default: only the queries change
    assertThat(plan(would).type()).isEqualTo(QuestionType.COMPARISON);
    RuleBasedPlanner typed = new RuleBasedPlanner(PlanRules.builder().hypothetical(PlanRules.Hypothetical.TYPED).build());
    assertThat(typed.plan(Question.of("ns", would)).routes().get(0).queries()).hasSizeGreaterThan(1);
    RuleBasedPlanner every = new RuleBasedPlanner(
        PlanRules.builder().hypothetical(PlanRules.Hypothetical.QUESTION_ONLY).build());
    assertThat(every.plan(Question.of("ns", might)).routes().get(0).queries()).containsExactly(might);
    RuleBasedPlanner single = new RuleBasedPlanner(
        PlanRules.defaults().toBuilder().hypothetical(PlanRules.Hypothetical.SINGLE_ROUTE).build());
    RecallPlan s = single.plan(Question.of("ns", would));
    assertThat(s.type()).isEqualTo(QuestionType.SINGLE);
    assertThat(s.routes()).hasSize(1);
    assertThat(s.routes().get(0).queries()).containsExactly(would);
    assertThat(single.plan(Question.of("ns", "Who has more pets, Dana or Omar?")).routes()).hasSize(2);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanRules.builder().hypothetical(null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("hypothetical");
  }
}
