// PersonalDataMaskTests: what a viewer sees of customers' emails, phones, and the commands of
// the audit log (the PostgreSQL masking views must agree: TeamRolesTests compares them).

import ShopCore
import Testing

@Suite struct PersonalDataMaskTests {
    @Test(arguments: [
        ("emily.johnson@x.dummyjson.com", "e***@x.dummyjson.com"),
        ("a@b", "a***@b"),
        ("@nobody", "***"),
        ("no-at-sign", "***"),
        ("élodie@example.fr", "é***@example.fr"),
        ("two@at@signs", "t***@at@signs"),
    ])
    func emails(email: String, masked: String) {
        #expect(PersonalDataMask.email(email) == masked)
        #expect(PersonalDataMask.email(masked) == PersonalDataMask.email(masked), "masking again changes nothing more")
    }

    @Test(arguments: [
        ("+81 965-431-3024", "+** ***-***-3024"),
        ("3024", "3024"),
        ("12345", "*2345"),
        ("", ""),
    ])
    func phones(phone: String, masked: String) {
        #expect(PersonalDataMask.phone(phone) == masked)
    }

    @Test(arguments: [
        ("basket add emily.johnson@x.dummyjson.com 1", "basket", "basket add e***@x.dummyjson.com 1"),
        ("favorites add 'a.b@c d' 2", "favourite", "favorites add '***@c d' 2"),
        ("basket set emilys 113 2", "basket", "basket set emilys 113 2"),
        ("x\ta@b\ny@z", "order", "x\ta***@b\ny***@z"),
        ("users update emilys --phone '+1 555 0100'", "user", "***"),
    ])
    func commands(command: String, entity: String, masked: String) {
        #expect(PersonalDataMask.command(command, entity: entity) == masked)
    }
}
