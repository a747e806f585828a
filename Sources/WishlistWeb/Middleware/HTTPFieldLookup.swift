import HTTPTypes

extension HTTPFields {
    /// The value of the first field named `name`: what a field that has one value (Content-Type)
    /// holds. `self[name]` joins every field of the name into a new string, through generic code
    /// that looks its types up at run time; every page's response is asked this twice.
    func firstValue(_ name: HTTPField.Name) -> String? {
        for field in self where field.name == name {
            return field.value
        }
        return nil
    }
}
