package dev.lychee.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fails the build when lychee-core's production packages form a cycle, or when the read stages
 * reach up into the pipeline that composes them. Every package is its own slice, the root package
 * {@code dev.lychee.core} included, so a cycle through the facade counts too.
 */
class PackageCyclesTest {
  private static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages("dev.lychee.core");
  }

  /** One slice per Java package. */
  private static final SliceAssignment BY_PACKAGE = new SliceAssignment() {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
      String p = javaClass.getPackageName();
      return p.startsWith("dev.lychee.core") ? SliceIdentifier.of(p) : SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
      return "packages of lychee-core";
    }
  };

  @Test
  void noPackageCycles() {
    slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles().check(core);
  }

  @Test
  void readStagesNeverDependOnThePipeline() {
    noClasses().that().resideInAnyPackage("dev.lychee.core.recall..", "dev.lychee.core.fuse..",
            "dev.lychee.core.rerank..", "dev.lychee.core.select..", "dev.lychee.core.plan..",
            "dev.lychee.core.answer..")
        .should().dependOnClassesThat().resideInAPackage("dev.lychee.core.read..")
        .check(core);
  }

  @Test
  void channelsKnowNothingOfLaterStages() {
    noClasses().that().resideInAPackage("dev.lychee.core.recall..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lychee.core.fuse..", "dev.lychee.core.rerank..",
            "dev.lychee.core.select..")
        .check(core);
  }

  @Test
  void sharedHelpersDependOnNoStage() {
    noClasses().that().resideInAnyPackage("dev.lychee.core.text..", "dev.lychee.core.score..",
            "dev.lychee.core.strategy..", "dev.lychee.core.config..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lychee.core.recall..", "dev.lychee.core.fuse..",
            "dev.lychee.core.rerank..", "dev.lychee.core.select..", "dev.lychee.core.read..",
            "dev.lychee.core.plan..", "dev.lychee.core.answer..")
        .check(core);
  }
}
