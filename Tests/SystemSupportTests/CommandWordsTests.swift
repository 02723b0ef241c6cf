// Command lines split as a POSIX shell would split them, with nothing expanded, and the mistakes an
// operator makes in a config file refused with a reason.

@testable import SystemSupport
import Testing

@Suite struct CommandWordsTests {
    @Test func wordsQuotesAndEscapesAsAShellSplitsThem() throws {
        #expect(try CommandWords.split("cec-ctl --to 0 --standby") == ["cec-ctl", "--to", "0", "--standby"])
        #expect(try CommandWords.split("  xset   dpms force off ") == ["xset", "dpms", "force", "off"])
        #expect(try CommandWords.split(#"/opt/my tools/off "a b" 'c d'"#) == ["/opt/my", "tools/off", "a b", "c d"])
        #expect(try CommandWords.split(#"say "it's \"on\"" 'back\slash' a\ b"#) == ["say", #"it's "on""#, #"back\slash"#, "a b"])
        #expect(try CommandWords.split(#"x "" ''"#) == ["x", "", ""])
        #expect(try CommandWords.split(#"p "\n\\""#) == ["p", #"\n\"#])
    }

    @Test func nothingIsExpanded() throws {
        #expect(try CommandWords.split("echo $HOME ~ *.mp4 ; rm -rf /") == ["echo", "$HOME", "~", "*.mp4", ";", "rm", "-rf", "/"])
    }

    @Test func mistakesAreRefusedWithAReason() {
        #expect(throws: CommandWords.Error(description: "the command is empty")) { try CommandWords.split("   ") }
        #expect(throws: CommandWords.Error(description: "the command has an unclosed double quote")) {
            try CommandWords.split(#"cec-ctl "--to 0"#)
        }
        #expect(throws: CommandWords.Error(description: "the command has an unclosed single quote")) {
            try CommandWords.split("off 'x")
        }
        #expect(throws: CommandWords.Error(description: "the command ends with a lone backslash")) {
            try CommandWords.split(#"off \"#)
        }
    }
}
