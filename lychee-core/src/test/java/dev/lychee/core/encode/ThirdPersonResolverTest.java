package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ThirdPersonResolverTest {

  /** Feeds sentences of one turn each, resolving and observing as the encoder does; returns the last. */
  private static String run(String... turns) {
    ThirdPersonResolver resolver = new ThirdPersonResolver(List.of("Caroline", "Melanie"));
    String last = null;
    for (String turn : turns) {
      resolver.nextTurn();
      for (String sentence : turn.split("(?<=[.!?])\\s+")) {
        last = resolver.resolve(sentence);
        resolver.observe(last);
      }
    }
    return last;
  }

  @Test
  void aSingleNamedReferentInTheSameTurnResolvesEveryForm() {
    assertThat(run("Melanie adopted Oliver last year. He hid his bone in Melanie's slipper once."))
        .isEqualTo("Oliver hid Oliver's bone in Melanie's slipper once.");
    assertThat(run("Caroline met a woman, Jean, at the shelter. She's been through a lot and I admire her."))
        .isEqualTo("Jean has been through a lot and I admire Jean.");
  }

  @Test
  void aReferentFromThePreviousTurnResolves() {
    assertThat(run("Caroline talked to someone named David.", "How is he doing now?"))
        .isEqualTo("How is David doing now?");
  }

  @Test
  void possessedPersonNounsCarryTheirGrammaticalGender() {
    assertThat(run("Melanie's son got into an accident. Melanie and others were lucky he was okay."))
        .isEqualTo("Melanie and others were lucky Melanie's son was okay.");
    // a daughter is never "he": the masculine pronoun stays
    assertThat(run("Melanie's daughter drew a horse. He liked it.")).isEqualTo("He liked it.");
    assertThat(run("Melanie's daughter took her first steps. Seeing her wobble was special."))
        .isEqualTo("Seeing Melanie's daughter wobble was special.");
    assertThat(run("Caroline's grandma gave Caroline a necklace. She got it in Sweden."))
        .isEqualTo("Caroline's grandma got it in Sweden.");
  }

  @Test
  void aNameAfterThePersonNounIsTheReferent() {
    assertThat(run("Melanie's son Max started piano lessons. He loves it."))
        .isEqualTo("Max loves it.");
  }

  @Test
  void twoCandidatesLeaveThePronounAlone() {
    assertThat(run("Here is a pic of Oliver. Can Caroline show one of Oscar?", "He's so cute!"))
        .isEqualTo("He's so cute!");
    assertThat(run("Melanie's friend met Caroline's cousin. She was nice.")).isEqualTo("She was nice.");
  }

  @Test
  void nothingToResolveLeavesTheSentence() {
    assertThat(run("Melanie went to the park.", "He said it was fun.")).isEqualTo("He said it was fun.");
    // the speakers are never referents, nor are places after a preposition
    assertThat(run("Caroline moved to Boston. She likes it.")).isEqualTo("She likes it.");
  }

  @Test
  void aSentenceThatNamesItsReferentIsLeftAsWritten() {
    assertThat(run("It was Matt Patterson, he is so talented!")).isEqualTo("It was Matt Patterson, he is so talented!");
  }

  @Test
  void aNameOpeningASentenceCountsOnlyOnceTheSegmentUsedItInside() {
    assertThat(run("Here is a pic of Oliver.", "Oliver's hilarious! He hid his bone.")).isEqualTo("Oliver hid Oliver's bone.");
    // "Life" might be any noun: it makes "he" ambiguous instead of being put in its place
    assertThat(run("Melanie's brother Tom is visiting.", "Life's been wild. He was such a help.")).isEqualTo("He was such a help.");
  }

  @Test
  void shortFormsOfSpeakerNamesAndVocativesAreNotReferents() {
    assertThat(run("That's great, Mel!", "Melanie's youngest took her first steps. Seeing her wobble was special."))
        .isEqualTo("Seeing her wobble was special.");
    assertThat(run("Thanks, Jon! Melanie's daughter sang. She was great.")).isEqualTo("Melanie's daughter was great.");
  }

  @Test
  void anUnnamedPersonMakesThePronounAmbiguous() {
    assertThat(run("Caroline talked to Jean.", "Caroline saw a little girl sitting alone. She seemed sad."))
        .isEqualTo("She seemed sad.");
  }

  @Test
  void contractionsAndPossessiveHerReadNaturally() {
    assertThat(run("Caroline adopted Coco from a shelter.", "She's always there and Caroline loves her stuff."))
        .isEqualTo("Coco is always there and Caroline loves Coco's stuff.");
    assertThat(run("Caroline adopted Coco from a shelter.", "She's been a joy; Caroline gave her a bath."))
        .isEqualTo("Coco has been a joy; Caroline gave Coco a bath.");
  }

  @Test
  void theyAndItAreNeverResolved() {
    assertThat(run("Melanie's dog Bailey is new. They get along and it is fun."))
        .isEqualTo("They get along and it is fun.");
  }

  @Test
  void quotedTitlesAreNotPeople() {
    assertThat(run("Caroline loved \"Becoming Nicole\" a lot. It is about Caroline and her family."))
        .isEqualTo("It is about Caroline and her family.");
    // the sentence split may leave the opening quote alone
    assertThat(run("Caroline's group wrote \"Finding Home. The lead was Jean.", "Her part was the best."))
        .isEqualTo("Jean's part was the best.");
  }
}
