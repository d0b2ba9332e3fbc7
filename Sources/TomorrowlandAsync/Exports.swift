// TomorrowlandAsync re-exports Tomorrowland: importing it is enough for both.
@_exported import Tomorrowland
