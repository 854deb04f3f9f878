package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.DateRange;
import dev.lychee.api.Encoding;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class OfflineEncoderTest {

  private final OfflineEncoder encoder = new OfflineEncoder(EncodingConfig.defaults());

  private List<MemoryRecord> encode(Segment s) {
    return encoder.encode(s, ReferenceContext.EMPTY).records();
  }

  private MemoryRecord only(String speaker, String text) {
    List<MemoryRecord> rs = encode(Segments.of(0, Segments.MAY8, "Nadia|Hi!", "Rafael|Hello!", speaker + "|" + text));
    assertThat(rs).hasSize(1);
    return rs.get(0);
  }

  @Test
  void firstPersonBecomesTheSpeakerAndRelativeDatesAreResolved() {
    MemoryRecord r = only("Nadia", "Nadia: I went to the choir rehearsal yesterday.");
    assertThat(r.text()).isEqualTo("Nadia went to the choir rehearsal yesterday (2023-05-07).");
    assertThat(r.type()).isEqualTo(MemoryType.EVENT);
    assertThat(r.temporal().tRef()).isEqualTo("2023-05-07");
    assertThat(r.temporal().span()).isEqualTo(DateRange.day(LocalDate.of(2023, 5, 7)));
    assertThat(r.entities()).contains("Nadia");
    assertThat(r.tags()).contains("choir", "rehearsal").allMatch(t -> t.equals(t.toLowerCase()));
    assertThat(r.evidence()).containsExactly(TurnRef.of(Segments.SESSION, 2));
    assertThat(r.sourceRole()).isEqualTo(SourceRole.USER);
    assertThat(r.createdAt()).isEqualTo(Segments.MAY8);
    assertThat(r.segmentId()).isEqualTo("session_1:0-2");
  }

  @Test
  void secondPersonBecomesTheOtherSpeakerWithAgreement() {
    MemoryRecord r = only("Rafael", "You are such a talented painter, and your lake painting is in my kitchen now.");
    assertThat(r.text()).isEqualTo("Nadia is such a talented painter, and Nadia's lake painting is in Rafael's kitchen now.");
    assertThat(r.entities()).contains("Nadia", "Rafael");
    assertThat(only("Nadia", "I love painting sunsets with my kids.").text())
        .isEqualTo("Nadia loves painting sunsets with Nadia's kids.");
  }

  @Test
  void secondPersonStaysWhenTheAddresseeIsUnknownButTheNoteNamesTheSpeakers() {
    Segment alone = Segments.of(30, Segments.MAY8, "Rafael|I hung your painting in my hallway.");
    assertThat(encode(alone).get(0).text()).isEqualTo("Rafael hung your painting in Rafael's hallway.");
    Encoding withNote = encoder.encode(alone, new ReferenceContext("Speakers: Nadia, Rafael", List.of()));
    assertThat(withNote.records().get(0).text()).isEqualTo("Rafael hung Nadia's painting in Rafael's hallway.");
    assertThat(withNote.note()).isEqualTo("Speakers: Nadia, Rafael");
  }

  @Test
  void greetingsFillersAcknowledgementsAndEmptyQuestionsAreDropped() {
    Segment s = Segments.of(0, Segments.MAY8,
        "Nadia|Hey Raf! Good to see you! How have you been?",
        "Rafael|Thanks, that's so cool!",
        "Nadia|Wow!",
        "Rafael|Yeah, sounds great. See you soon!",
        "Nadia|What kind of paintings do you do?");
    assertThat(encode(s)).isEmpty();
  }

  @Test
  void subjectlessSentencesGetTheSpeakerAndWeekendsResolve() {
    MemoryRecord r = only("Rafael", "Went hiking with my dog last weekend.");
    assertThat(r.text()).isEqualTo("Rafael went hiking with Rafael's dog last weekend (2023-05-06 to 2023-05-07).");
    assertThat(r.temporal().span()).isEqualTo(new DateRange(LocalDate.of(2023, 5, 6), LocalDate.of(2023, 5, 7)));
    assertThat(r.type()).isEqualTo(MemoryType.EVENT);
  }

  @Test
  void interjectionsVocativesAndDateWordsStayOutOfEntities() {
    MemoryRecord r = only("Rafael", "Woah Nadia, I won a chess tournament last Friday!");
    assertThat(r.text()).isEqualTo("Rafael won a chess tournament last Friday (2023-05-05).");
    assertThat(r.entities()).containsExactly("Rafael");
    MemoryRecord ours = only("Nadia", "Last weekend our city held a pride parade.");
    assertThat(ours.text()).isEqualTo("Last weekend (2023-05-06 to 2023-05-07) Nadia's city held a pride parade.");
    assertThat(ours.entities()).containsExactly("Nadia");
    assertThat(only("Rafael", "Just been busy with pottery classes.").text())
        .isEqualTo("Rafael has just been busy with pottery classes.");
  }

  @Test
  void typesByRule() {
    MemoryRecord pref = only("Rafael", "I love pottery classes.");
    assertThat(pref.type()).isEqualTo(MemoryType.PREFERENCE);
    assertThat(pref.text()).isEqualTo("Rafael loves pottery classes.");

    MemoryRecord constraint = only("Rafael", "I'm allergic to peanuts and shellfish.");
    assertThat(constraint.type()).isEqualTo(MemoryType.CONSTRAINT);
    assertThat(constraint.text()).isEqualTo("Rafael is allergic to peanuts and shellfish.");

    MemoryRecord datedPlan = only("Nadia", "I'm going to visit Paris next month.");
    assertThat(datedPlan.type()).isEqualTo(MemoryType.EVENT);
    assertThat(datedPlan.tags()).startsWith("plan");
    assertThat(datedPlan.text()).isEqualTo("Nadia is going to visit Paris next month (June 2023).");
    assertThat(datedPlan.entities()).contains("Paris");
    assertThat(datedPlan.temporal().tRef()).isEqualTo("2023-06");

    MemoryRecord plan = only("Nadia", "I will start a pottery class.");
    assertThat(plan.type()).isEqualTo(MemoryType.FACT);
    assertThat(plan.tags()).contains("plan", "pottery");
    assertThat(plan.temporal().isEmpty()).isTrue();

    assertThat(only("Nadia", "I work as a counselor at the Riverside Clinic.").type()).isEqualTo(MemoryType.FACT);
    assertThat(only("Nadia", "I work as a counselor at the Riverside Clinic.").entities())
        .contains("Nadia", "Riverside Clinic");
  }

  @Test
  void absoluteDatesAreKeptAsWrittenAndStillDated() {
    MemoryRecord r = only("Nadia", "I moved to Boston on 3 March, 2021.");
    assertThat(r.text()).isEqualTo("Nadia moved to Boston on 3 March, 2021.");
    assertThat(r.temporal().span()).isEqualTo(DateRange.day(LocalDate.of(2021, 3, 3)));
  }

  @Test
  void withoutATurnTimeRelativeDatesStayUnresolved() {
    List<MemoryRecord> rs = encode(Segments.of(0, null, "Nadia|I went to the choir rehearsal yesterday."));
    assertThat(rs.get(0).text()).isEqualTo("Nadia went to the choir rehearsal yesterday.");
    assertThat(rs.get(0).temporal().isEmpty()).isTrue();
  }

  @Test
  void photoCaptionsBecomeRecords() {
    List<MemoryRecord> rs = encode(Segments.of(5, Segments.MAY8,
        "Rafael|Look at this! [shares photo: a photo of a red bicycle leaning on a fence]"));
    assertThat(rs).hasSize(1);
    assertThat(rs.get(0).text()).isEqualTo("Rafael shared a photo of a red bicycle leaning on a fence.");
    assertThat(rs.get(0).tags()).startsWith("photo").contains("bicycle").doesNotHaveDuplicates();
    assertThat(rs.get(0).evidence()).containsExactly(TurnRef.of(Segments.SESSION, 5));
  }

  @Test
  void everyRecordCitesOnlyItsOwnTurnAndReadsAsASentence() {
    Segment s = Segments.of(10, Segments.MAY8,
        "Nadia|Hey Raf! I joined a choir last Friday. We sing in the church choir every Tuesday.",
        "Rafael|That's awesome! My son Max started piano lessons two weeks ago.",
        "Nadia|I'm keen on counseling or working in mental health.");
    Encoding e = encoder.encode(s, ReferenceContext.EMPTY);
    assertThat(e.usage()).isEqualTo(TokenUsage.ZERO);
    assertThat(e.inputTokens()).isZero();
    assertThat(e.note()).isEqualTo("Speakers: Nadia, Rafael");
    assertThat(e.records()).extracting(MemoryRecord::text).containsExactly(
        "Nadia joined a choir last Friday (2023-05-05).",
        "Nadia and others sing in the church choir every Tuesday.",
        "Rafael's son Max started piano lessons two weeks ago (2023-04-24).",
        "Nadia is keen on counseling or working in mental health.");
    assertThat(e.records()).allSatisfy(r -> {
      assertThat(r.evidence()).hasSize(1);
      assertThat(r.text()).matches("[A-Z].*\\.$");
    });
    assertThat(e.records().get(0).evidence()).containsExactly(TurnRef.of(Segments.SESSION, 10));
    assertThat(e.records().get(2).evidence()).containsExactly(TurnRef.of(Segments.SESSION, 11));
    assertThat(e.records().get(2).entities()).contains("Rafael", "Max");
    assertThat(e.records().get(3).type()).isEqualTo(MemoryType.PREFERENCE);
  }

  @Test
  void assistantTurnsAreKeptOnlyWhenTheyAddressTheUser() {
    Segment s = Segments.of(0, Segments.MAY8,
        "user|I have a dentist appointment on Friday and I always forget my insurance card.",
        "assistant|The capital of France is Paris.",
        "assistant|You should put your insurance card in your wallet tonight.");
    List<MemoryRecord> rs = encode(s);
    assertThat(rs).extracting(MemoryRecord::text).containsExactly(
        "The user has a dentist appointment on Friday (2023-05-05) and the user always forgets the user's insurance card.",
        "The assistant said that the user should put the user's insurance card in the user's wallet tonight (2023-05-08).");
    assertThat(rs.get(1).sourceRole()).isEqualTo(SourceRole.ASSISTANT);
  }

  @Test
  void thirdPersonPronounsResolveToTheOnlyRecentReferent() {
    Segment s = Segments.of(0, Segments.MAY8,
        "Rafael|My son got into an accident on the trip. We were so lucky he was okay after the crash.",
        "Nadia|Oh no! Is he doing better now? I talked to my cousin Jean about it.",
        "Rafael|Thanks for asking, he is back at school and loves his new teacher. Please say hi to her from me!");
    // the son reaches the last turn through Nadia's question; Jean fits "he" too, so it stays
    assertThat(encode(s)).extracting(MemoryRecord::text).containsExactly(
        "Rafael's son got into an accident on the trip.",
        "Rafael and others were so lucky Rafael's son was okay after the crash.",
        "Nadia talked to Nadia's cousin Jean about it.",
        "Rafael said that he is back at school and loves his new teacher.");
    // a resolved name opening a reported sentence keeps its capital
    Segment author = Segments.of(0, Segments.MAY8,
        "Nadia|I have been reading books by Rowling for years.",
        "Nadia|Her characters are so vivid and detailed.");
    assertThat(encode(author)).extracting(MemoryRecord::text)
        .contains("Nadia said that Rowling's characters are so vivid and detailed.");
    // a speaker whose name is also a common word ("may") is still a name
    Segment may = Segments.of(0, Segments.MAY8,
        "Nadia|May finally finished the big mural downtown.",
        "May|Thanks, it took months of work.");
    assertThat(encode(may)).extracting(MemoryRecord::text)
        .contains("Nadia said that May finally finished the big mural downtown.");
    Segment ambiguous = Segments.of(0, Segments.MAY8,
        "Rafael|My son and my nephew visited last week. He brought a cake for the party.");
    assertThat(encode(ambiguous)).extracting(MemoryRecord::text)
        .contains("Rafael said that he brought a cake for the party.");
  }

  @Test
  void reflexivesWeAndUsReadAsStandaloneSentences() {
    assertThat(only("Nadia", "I finally learned to embrace myself and my story.").text())
        .isEqualTo("Nadia finally learned to embrace themself and Nadia's story.");
    assertThat(only("Nadia", "This bracelet is a gift to myself.").text())
        .isEqualTo("This bracelet is a gift to Nadia.");
    assertThat(only("Rafael", "We're going camping with the kids, it makes us so happy.").text())
        .isEqualTo("Rafael and others are going camping with the kids, it makes Rafael and others so happy.");
    assertThat(only("Rafael", "We taught ourselves to surf in Hawaii.").text())
        .isEqualTo("Rafael and others taught themselves to surf in Hawaii.");
    assertThat(only("Rafael", "Looks like we both need a break from work.").text())
        .isEqualTo("Looks like Rafael and Nadia both need a break from work.");
    assertThat(only("Rafael", "We can both bring some recipes to the potluck.").text())
        .isEqualTo("Rafael and Nadia can both bring some recipes to the potluck.");
    assertThat(only("Rafael", "Glad you liked the pottery workshop suggestion!").text())
        .isEqualTo("Rafael is glad Nadia liked the pottery workshop suggestion.");
    assertThat(only("Rafael", "Since we last talked, I started a pottery class.").text())
        .isEqualTo("Since Rafael and Nadia last talked, Rafael started a pottery class.");
  }

  @Test
  void leadingFillersAndDiscourseMarkersAreStripped() {
    assertThat(only("Rafael", "And thanks for asking, we got another cat named Bailey.").text())
        .isEqualTo("Rafael and others got another cat named Bailey.");
    assertThat(only("Rafael", "Haha yeah, well, the pottery class was a blast.").text())
        .isEqualTo("Rafael said that the pottery class was a blast.");
    assertThat(only("Rafael", "By the way - my pottery class is really fun.").text())
        .isEqualTo("Rafael's pottery class is really fun.");
    // "Thank you for" followed by content is a thank-you to the other speaker, not a filler
    assertThat(only("Rafael", "Thank you for the painting lessons at the studio.").text())
        .isEqualTo("Rafael thanks Nadia for the painting lessons at the studio.");
    assertThat(only("Rafael", "Thanks for sharing your amazing pottery creations!").text())
        .isEqualTo("Rafael thanks Nadia for sharing Nadia's amazing pottery creations.");
    // a subjectless gerund takes the speaker; a gerund subject stays
    assertThat(only("Rafael", "Loving the inclusivity and support at the parade.").text())
        .isEqualTo("Rafael is loving the inclusivity and support at the parade.");
    assertThat(only("Rafael", "Painting brings me so much peace and joy.").text())
        .isEqualTo("Painting brings Rafael so much peace and joy.");
  }

  @Test
  void requestsWithoutContentAreDropped() {
    Segment s = Segments.of(0, Segments.MAY8,
        "Rafael|Let me know what you think when you check out the gallery downtown.",
        "Nadia|Keep me posted about the pottery workshop next weekend!");
    assertThat(encode(s)).isEmpty();
  }

  @Test
  void nameIsOffline() {
    assertThat(encoder.name()).isEqualTo("offline");
  }
}
