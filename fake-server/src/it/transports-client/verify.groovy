// The nested build passed; check that it ran every test it holds, so a test that silently stopped running
// (renamed, filtered out) cannot pass for it.
def reports = new File(basedir, 'target/surefire-reports')
def expected = ['com.example.transports.TransportsTest': 18]
expected.each { name, count ->
    def report = new File(reports, "TEST-${name}.xml")
    assert report.isFile() : "no report for ${name}"
    def suite = new groovy.xml.XmlSlurper().parse(report)
    assert suite.@tests.toInteger() == count : "${name}: ${suite.@tests} tests, expected ${count}"
    assert suite.@failures.toInteger() == 0 && suite.@errors.toInteger() == 0 && suite.@skipped.toInteger() == 0
}
true
