package dev.lychee.core.segment;

import static dev.lychee.core.segment.Fixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ExchangesTest {
  private static final SegmentationConfig CONFIG = SegmentationConfig.defaults();

  @Test
  void anExchangeStartsAtEachUserTurnAndLeadingAssistantTurnsJoinTheFirst() {
    List<RawTurn> turns = List.of(
        turn(0, Role.ASSISTANT, "Welcome back."),
        turn(1, Role.SYSTEM, "note"),
        turn(2, Role.USER, "Hi"),
        turn(3, Role.ASSISTANT, "Hello"),
        turn(4, Role.USER, "Bye"),
        turn(5, Role.USER, "Really bye"),
        turn(6, Role.ASSISTANT, "Ok"));
    List<ExchangeDraft> drafts = Exchanges.form(turns, CONFIG);
    assertThat(drafts).extracting(ExchangeDraft::firstIndex).containsExactly(0, 4, 5);
    assertThat(drafts).extracting(ExchangeDraft::lastIndex).containsExactly(3, 4, 6);
    assertThat(drafts.get(0).text())
        .isEqualTo("assistant: Welcome back.\nsystem: note\nuser: Hi\nassistant: Hello");
    assertThat(drafts.get(0).tokens()).isEqualTo(TokenEstimator.estimate(drafts.get(0).text()));
    assertThat(drafts).noneMatch(ExchangeDraft::forceFinalize);
  }

  @Test
  void textUsesTheSpeakerPrefixedContent() {
    RawTurn withSpeaker = new RawTurn("ns", TurnRef.of("s1", 0), Role.USER, "Nadia", "I adopted a cat", null);
    RawTurn alreadyPrefixed = new RawTurn("ns", TurnRef.of("s1", 1), Role.ASSISTANT, "Raf", "Raf: nice!", null);
    assertThat(Exchanges.form(List.of(withSpeaker, alreadyPrefixed), CONFIG).get(0).text())
        .isEqualTo("user: Nadia: I adopted a cat\nassistant: Raf: nice!");
  }

  @Test
  void emptyTurnsStayInTheListButNotInTheText() {
    List<RawTurn> turns = List.of(
        turn(0, Role.USER, "question"),
        turn(1, Role.ASSISTANT, "   "),
        turn(2, Role.ASSISTANT, "answer"));
    ExchangeDraft d = Exchanges.form(turns, CONFIG).get(0);
    assertThat(d.turns()).extracting(RawTurn::index).containsExactly(0, 1, 2);
    assertThat(d.text()).isEqualTo("user: question\nassistant: answer");
  }

  @Test
  void emptyInputGivesNoExchange() {
    assertThat(Exchanges.form(List.of(), CONFIG)).isEmpty();
  }

  @Test
  void turnsOfTwoSessionsAreRejected() {
    RawTurn other = new RawTurn("ns", TurnRef.of("s2", 1), Role.USER, null, "x", null);
    assertThatThrownBy(() -> Exchanges.form(List.of(turn(0, Role.USER, "a"), other), CONFIG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one session");
  }

  @Test
  void anOversizedExchangeIsSplitAtTurnBoundaries() {
    // each assistant turn: "assistant: " + 700 words -> 701 words + 700 spaces.../4
    String body = "word ".repeat(600).trim();
    List<RawTurn> turns = new ArrayList<>();
    turns.add(turn(0, Role.USER, "tell me"));
    for (int i = 1; i <= 5; i++) {
      turns.add(turn(i, Role.ASSISTANT, body));
    }
    List<ExchangeDraft> drafts = Exchanges.form(turns, CONFIG);
    assertThat(drafts).hasSizeGreaterThan(1);
    assertThat(drafts).noneMatch(ExchangeDraft::forceFinalize);
    assertThat(drafts).allSatisfy(d -> assertThat(d.tokens()).isLessThanOrEqualTo(2000));
    // every turn once, in order
    assertThat(drafts.stream().flatMap(d -> d.turns().stream()).map(RawTurn::index).toList())
        .containsExactly(0, 1, 2, 3, 4, 5);
    // a piece counts the sum of its turns' line estimates
    for (ExchangeDraft d : drafts) {
      int sum = d.turns().stream().mapToInt(t -> TokenEstimator.estimate(Exchanges.line(t))).sum();
      assertThat(d.tokens()).isEqualTo(sum);
    }
    int turnTokens = TokenEstimator.estimate("assistant: " + body);
    assertThat(turnTokens).isBetween(600, 1000);
    // greedy packing: 'tell me' + two bodies fit, the third would pass 2000
    assertThat(drafts.get(0).turns()).hasSize(3);
  }

  @Test
  void aSingleOversizedTurnBecomesForcedFragments() {
    String huge = "alpha beta, gamma! ".repeat(2000); // about 6000+ tokens
    List<RawTurn> turns = List.of(
        turn(3, Role.USER, "short question"),
        turn(4, Role.ASSISTANT, huge),
        turn(5, Role.ASSISTANT, "tail"));
    List<ExchangeDraft> drafts = Exchanges.form(turns, CONFIG);
    List<ExchangeDraft> fragments = drafts.stream().filter(ExchangeDraft::forceFinalize).toList();
    assertThat(fragments).hasSizeGreaterThanOrEqualTo(3);
    assertThat(fragments).allSatisfy(f -> {
      assertThat(f.turns()).hasSize(1);
      assertThat(f.firstIndex()).isEqualTo(4);
      assertThat(f.tokens()).isLessThanOrEqualTo(2000).isEqualTo(TokenEstimator.estimate(f.text()));
      assertThat(f.text()).startsWith("assistant: ");
    });
    // fragments are full: each but the last is within a few tokens of the cap
    assertThat(fragments.get(0).tokens()).isGreaterThan(1990);
    // the slices put back together are the original text
    assertThat(fragments.stream().map(f -> f.turns().get(0).text()).collect(Collectors.joining()))
        .isEqualTo(huge);
    // the turns before and after stay ordinary pieces, in order
    assertThat(drafts.get(0).forceFinalize()).isFalse();
    assertThat(drafts.get(0).firstIndex()).isEqualTo(3);
    assertThat(drafts.get(drafts.size() - 1).firstIndex()).isEqualTo(5);
    assertThat(drafts.get(drafts.size() - 1).forceFinalize()).isFalse();
  }

  @Test
  void fragmentsNeverSplitASurrogatePair() {
    String huge = "\uD83D\uDE00".repeat(9000); // 9000 code points, 2250 tokens
    List<ExchangeDraft> drafts = Exchanges.form(List.of(turn(0, Role.USER, huge)), CONFIG);
    assertThat(drafts).hasSize(2).allMatch(ExchangeDraft::forceFinalize);
    String joined = drafts.stream().map(d -> d.turns().get(0).text()).collect(Collectors.joining());
    assertThat(joined).isEqualTo(huge);
    assertThat(drafts.get(0).turns().get(0).text().length() % 2).isZero();
  }

  @Test
  void embeddingTextKeepsHeadAndTail() {
    String shortText = "x".repeat(4000);
    assertThat(Exchanges.embeddingText(shortText, 4000)).isSameAs(shortText);
    String text = "h".repeat(2000) + "MIDDLE" + "t".repeat(2000);
    String shortened = Exchanges.embeddingText(text, 4000);
    assertThat(shortened).isEqualTo("h".repeat(2000) + "\n...\n" + "t".repeat(2000));
    ExchangeDraft d = new ExchangeDraft(List.of(turn(0, Role.USER, text)), text, 5, false);
    assertThat(d.embeddingText(CONFIG)).isEqualTo(shortened);
  }

  @Test
  void withExchangeVectorsFromTurnsAOneTurnExchangeIsEmbeddedAsItsTurnsText() {
    SegmentationConfig fromTurns = SegmentationConfig.builder().exchangeVectorsFromTurns(true).build();
    RawTurn ada = new RawTurn("ns", TurnRef.of("s1", 0), Role.USER, "Ada", "I adopted a cat", null);
    RawTurn reply = new RawTurn("ns", TurnRef.of("s1", 1), Role.ASSISTANT, null, "Lovely", null);
    RawTurn alone = new RawTurn("ns", TurnRef.of("s1", 2), Role.USER, "Ada", "She sleeps a lot", null);
    List<ExchangeDraft> drafts = Exchanges.form(List.of(ada, reply, alone), fromTurns);
    assertThat(drafts.get(0).embeddingText(fromTurns)).isEqualTo("user: Ada: I adopted a cat\nassistant: Lovely");
    assertThat(drafts.get(1).embeddingText(fromTurns)).isEqualTo("Ada: She sleeps a lot");
    assertThat(drafts.get(1).embeddingText(CONFIG)).isEqualTo("user: Ada: She sleeps a lot");
    // a long turn is shortened exactly as its own turn vector's text is
    String text = "h".repeat(2000) + "MIDDLE" + "t".repeat(2000);
    ExchangeDraft longTurn = Exchanges.form(List.of(turn(3, Role.USER, text)), fromTurns).get(0);
    assertThat(longTurn.embeddingText(fromTurns)).isEqualTo(Exchanges.embeddingText(longTurn.turns().get(0).content(), 4000));
  }

  @Test
  void fragmentsOfAnOversizedTurnKeepTheirOwnTextWithExchangeVectorsFromTurns() {
    SegmentationConfig fromTurns = SegmentationConfig.builder().exchangeVectorsFromTurns(true).build();
    String huge = "word ".repeat(3000);
    List<ExchangeDraft> drafts = Exchanges.form(List.of(turn(0, Role.USER, huge)), fromTurns);
    assertThat(drafts).hasSizeGreaterThan(1).allMatch(ExchangeDraft::forceFinalize);
    assertThat(drafts).allSatisfy(d -> {
      assertThat(d.isWholeTurn()).isFalse();
      assertThat(d.embeddingText(fromTurns)).isEqualTo(d.embeddingText(CONFIG));
    });
  }

  @Test
  void embeddingTextCountsCodePoints() {
    String emoji = "\uD83D\uDE00";
    String text = emoji.repeat(300);
    assertThat(Exchanges.embeddingText(text, 300)).isSameAs(text);
    assertThat(Exchanges.embeddingText(text + "a", 300)).isEqualTo(emoji.repeat(150) + "\n...\n" + emoji.repeat(149) + "a");
  }

  @Test
  void draftBecomesAnExchange() {
    ExchangeDraft d = Exchanges.form(List.of(turn(7, Role.USER, "hi")), CONFIG).get(0);
    Exchange e = d.toExchange(Fixtures.axis(0));
    assertThat(e.namespace()).isEqualTo(Fixtures.NS);
    assertThat(e.session()).isEqualTo(Fixtures.SESSION);
    assertThat(e.firstIndex()).isEqualTo(7);
    assertThat(e.text()).isEqualTo("user: hi");
    assertThat(e.tokens()).isEqualTo(d.tokens());
  }
}
