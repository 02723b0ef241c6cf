// CAP 1.2 documents as pure code: a single alert and an Atom feed read, entities and CDATA decoded, what is
// not XML refused whole; the plan raises Actual alerts not yet expired, leaves Test ones out, withdraws what
// a Cancel names and what the feed no longer carries.

import CAPFeed
import Testing

@Suite struct CAPDocumentTests {
    static func alert(_ identifier: String, status: String = "Actual", type: String = "Alert", references: String? = nil,
                      severity: String = "Extreme", expires: String = "2030-01-01T00:00:00-05:00", headline: String = "Flood warning") -> String {
        """
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
          <identifier>\(identifier)</identifier><sender>w@example.org</sender><sent>2026-11-29T10:00:00-00:00</sent>
          <status>\(status)</status><msgType>\(type)</msgType><scope>Public</scope>
          \(references.map { "<references>\($0)</references>" } ?? "")
          <info><category>Met</category><event>Flood</event><urgency>Immediate</urgency><severity>\(severity)</severity>
            <certainty>Observed</certainty><expires>\(expires)</expires><headline>\(headline)</headline>
            <instruction><![CDATA[Move to higher ground & stay there]]></instruction></info>
        </alert>
        """
    }

    @Test func aFeedAndASingleAlertAreRead() throws {
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a feed -->
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Alerts</title>
              <entry><id>1</id><content type="text/xml">\(Self.alert("A1", headline: "Flood &amp; storm &#8212; now"))</content></entry>
              <entry><id>2</id><content type="text/xml">\(Self.alert("T1", status: "Test"))</content></entry>
            </feed>
            """
        let alerts = try CAPDocument.alerts(Array(feed.utf8))
        #expect(alerts.map(\.identifier) == ["A1", "T1"])
        #expect(alerts[0].headline == "Flood & storm \u{2014} now" && alerts[0].instruction == "Move to higher ground & stay there")
        #expect(alerts[0].screenText == "Flood & storm \u{2014} now\nMove to higher ground & stay there" && alerts[0].priority == 100)
        let single = try CAPDocument.alerts(Array(Self.alert("C1", type: "Cancel", references: "w@example.org,A1,2026-11-29T10:00:00-00:00").utf8))
        #expect(single.first?.referencedIdentifiers == ["A1"])
        for bad in ["<alert><identifier>x</alert>", "not xml at all <", "<!DOCTYPE x [<!ENTITY a 'b'>]><alert/>", "<alert>&bogus;</alert>"] {
            #expect(throws: CAPError.self, "\(bad)") { try CAPDocument.alerts(Array(bad.utf8)) }
        }
        // An alert without its sender is left out; the feed's other alerts are still read.
        let mixed = try CAPDocument.read(Array(("<feed><alert><sender>x</sender></alert >" + Self.alert("K1") + "</feed >").utf8))
        #expect(mixed.alerts.map(\.identifier) == ["K1"] && mixed.skipped.count == 1)
    }

    @Test func thePlanRaisesCurrentActualAlertsAndWithdrawsWhatIsCancelledOrGone() throws {
        let feed = "https://127.0.0.1:9/cap.xml"
        let prefix = CAPPlan.prefix(feed: feed)
        let now = 1_800_000_000.0
        let alerts = try CAPDocument.alerts(Array(("<feed>" + Self.alert("A1") + Self.alert("T1", status: "Test")
            + Self.alert("OLD", expires: "2020-01-01T00:00:00Z") + Self.alert("U2", type: "Update", references: "w,A0,x", severity: "Minor") + "</feed>").utf8))
        let plan = CAPPlan.plan(feed: feed, alerts: alerts, now: now, statuses: ["Actual"], standing: [prefix + "A0", prefix + "GONE", "other"])
        #expect(plan.raise.map(\.id) == [prefix + "A1", prefix + "U2"])
        #expect(plan.raise.map(\.priority) == [100, 25] && plan.raise[0].expires == 1_893_474_000)
        #expect(plan.clear == [prefix + "A0", prefix + "GONE"], "updated, and no longer carried; another source's alert stays")
        let tests = CAPPlan.plan(feed: feed, alerts: alerts, now: now, statuses: ["Actual", "Test"], standing: [])
        #expect(tests.raise.map(\.id).contains(prefix + "T1"))
        let cancel = try CAPDocument.alerts(Array(Self.alert("C1", type: "Cancel", references: "w,A1,x").utf8))
        let cancelled = CAPPlan.plan(feed: feed, alerts: alerts + cancel, now: now, statuses: ["Actual"], standing: [prefix + "A1"])
        #expect(!cancelled.raise.map(\.id).contains(prefix + "A1") && cancelled.clear == [prefix + "A1"])
    }
}
